import { DEFAULTS, LIMITS, OTP_ALGORITHMS, OTP_TYPES, clip, fail, type AccountInput, type ImportResult, type OtpAccount, type OtpAlgorithm, type OtpType } from './model';

// The field rules: the same for an account typed by hand, sent to the API or read from a file.

/** Spaces, hyphens and lower case accepted; `=` padding dropped. Throws on anything else. */
export function normaliseSecret(input: string | null | undefined): string {
  const secret = (input ?? '').replace(/[\s-]+/g, '').replace(/=+$/, '').toUpperCase();
  if (!secret) fail('The secret is missing.', 'secret');
  if (!/^[A-Z2-7]+$/.test(secret)) fail('The secret is not valid base32 (letters A–Z and digits 2–7).', 'secret');
  if (secret.length < LIMITS.secret.min) fail(`The secret is too short (at least ${LIMITS.secret.min} characters).`, 'secret');
  if (secret.length > LIMITS.secret.max) fail(`The secret is too long (at most ${LIMITS.secret.max} characters).`, 'secret');
  return secret;
}

export function normaliseAlgorithm(input: string | null | undefined): OtpAlgorithm {
  if (input === null || input === undefined || input.trim() === '') return DEFAULTS.algorithm;
  const name = input.trim().toUpperCase().replace(/^HMAC-?/, '').replace(/-/g, '');
  if ((OTP_ALGORITHMS as readonly string[]).includes(name)) return name as OtpAlgorithm;
  return fail(`Unsupported algorithm "${clip(input.trim(), 20)}" (use SHA1, SHA256 or SHA512).`, 'algorithm');
}

export function integerIn(input: number | string | null | undefined, field: 'digits' | 'period' | 'counter', min: number, max: number, fallback?: number): number {
  if (input === null || input === undefined || (typeof input === 'string' && input.trim() === '')) {
    if (fallback !== undefined) return fallback;
    return fail(field === 'counter' ? 'An HOTP account needs its counter.' : `The ${field} are missing.`, field);
  }
  const text = typeof input === 'number' ? String(input) : input.trim();
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    if (field === 'digits') return fail(`Codes must have ${min} to ${max} digits (got "${clip(text, 12)}").`, field);
    if (field === 'period') return fail(`The period must be ${min} to ${max} seconds (got "${clip(text, 12)}").`, field);
    return fail(`The counter must be a whole number from 0 (got "${clip(text, 24)}").`, field);
  }
  return value;
}

export function cleanText(input: string | null | undefined, what: 'account name' | 'issuer', max: number): string {
  const text = (input ?? '').normalize('NFC').trim();
  if (text.includes('\u0000')) fail(`The ${what} must not contain NUL characters.`, what === 'issuer' ? 'issuer' : 'accountName');
  if ([...text].length > max) fail(`The ${what} is too long (at most ${max} characters).`, what === 'issuer' ? 'issuer' : 'accountName');
  return text;
}

/**
 * The rules for one account, whatever it came from. Name and secret are required (SPEC.md §5);
 * the rest default to SHA1, 6 digits, 30 seconds, TOTP. HOTP needs a counter.
 */
export function validateAccount(input: AccountInput): OtpAccount {
  const typeText = (input.type ?? 'totp').trim().toLowerCase() || 'totp';
  if (typeText === 'steam') fail('Steam Guard accounts are not supported.', 'type');
  if (!(OTP_TYPES as readonly string[]).includes(typeText)) fail(`Unknown OTP type "${clip(typeText, 20)}" (use totp or hotp).`, 'type');
  const type = typeText as OtpType;
  const issuer = cleanText(input.issuer, 'issuer', LIMITS.issuer.max) || null;
  const accountName = cleanText(input.accountName, 'account name', LIMITS.accountName.max);
  if (!accountName) fail('The account name is missing.', 'accountName');
  return {
    type,
    issuer,
    accountName,
    secret: normaliseSecret(input.secret),
    algorithm: normaliseAlgorithm(input.algorithm),
    digits: integerIn(input.digits, 'digits', LIMITS.digits.min, LIMITS.digits.max, DEFAULTS.digits),
    period: type === 'totp' ? integerIn(input.period, 'period', LIMITS.period.min, LIMITS.period.max, DEFAULTS.period) : DEFAULTS.period,
    counter: type === 'hotp' ? integerIn(input.counter, 'counter', 0, Number.MAX_SAFE_INTEGER) : null,
  };
}

/** How an account is named to a person: "Issuer: name" or "name". */
export function accountLabel(account: { issuer?: string | null; accountName?: string | null }): string {
  const name = (account.accountName ?? '').trim();
  const issuer = (account.issuer ?? '').trim();
  if (issuer && name && issuer !== name) return `${issuer}: ${name}`;
  return issuer || name || '(unnamed)';
}

/** Two entries are the same account when issuer, name (both case-insensitive) and secret agree. */
export function accountKey(account: Pick<OtpAccount, 'issuer' | 'accountName' | 'secret'>): string {
  return [(account.issuer ?? '').trim().toLowerCase(), account.accountName.trim().toLowerCase(), account.secret].join('\u0000');
}

/** Drops repeats within a list (and of `existing` keys), saying which were dropped. */
export function dedupeAccounts(accounts: OtpAccount[], existing: Iterable<string> = []): ImportResult {
  const seen = new Set(existing);
  const result: ImportResult = { accounts: [], skipped: [] };
  for (const account of accounts) {
    const key = accountKey(account);
    if (seen.has(key)) {
      result.skipped.push({ reason: 'Already in the list.', label: accountLabel(account) });
      continue;
    }
    seen.add(key);
    result.accounts.push(account);
  }
  return result;
}
