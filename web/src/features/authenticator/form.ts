/**
 * The Add Account form's state and the small text helpers of the cards. Every rule about what
 * an account may hold lives in `common/otpauth` (shared with the server); this file only moves
 * values between the form and that module.
 */
import {
  DEFAULTS,
  OtpauthError,
  validateAccount,
  type AccountInput,
  type OtpAccount,
  type OtpAlgorithm,
  type OtpType,
} from '@common/otpauth';

export interface AccountForm {
  accountName: string;
  issuer: string;
  secret: string;
  algorithm: OtpAlgorithm;
  /** kept as typed, so a half-typed number is not lost */
  digits: string;
  period: string;
  type: OtpType;
  counter: string;
}

export const EMPTY_FORM: AccountForm = {
  accountName: '',
  issuer: '',
  secret: '',
  algorithm: DEFAULTS.algorithm,
  digits: String(DEFAULTS.digits),
  period: String(DEFAULTS.period),
  type: 'totp',
  counter: '0',
};

/** SPEC §5: the Add button waits for an account name and a secret. */
export function canSubmit(form: AccountForm): boolean {
  return form.accountName.trim() !== '' && form.secret.trim() !== '';
}

export function formToInput(form: AccountForm): AccountInput {
  return {
    accountName: form.accountName,
    issuer: form.issuer.trim() || null,
    secret: form.secret,
    algorithm: form.algorithm,
    digits: form.digits,
    period: form.type === 'totp' ? form.period : null,
    type: form.type,
    counter: form.type === 'hotp' ? form.counter : null,
  };
}

/** A scanned or imported account, ready to check and add. */
export function accountToForm(account: OtpAccount): AccountForm {
  return {
    accountName: account.accountName,
    issuer: account.issuer ?? '',
    secret: account.secret,
    algorithm: account.algorithm,
    digits: String(account.digits),
    period: String(account.period),
    type: account.type,
    counter: String(account.counter ?? 0),
  };
}

/** True when the account uses anything but SHA1, 6 digits, 30 s TOTP (then Advanced opens). */
export function hasAdvancedSettings(form: AccountForm): boolean {
  return (
    form.algorithm !== EMPTY_FORM.algorithm ||
    form.digits !== EMPTY_FORM.digits ||
    form.type !== 'totp' ||
    (form.type === 'totp' && form.period !== EMPTY_FORM.period)
  );
}

export type FormField = keyof AccountForm;

export type CheckedForm = { ok: true; account: OtpAccount } | { ok: false; field: FormField | null; message: string };

/** The shared rules (secret normalised: spaces, hyphens and lower case accepted). */
export function checkForm(form: AccountForm): CheckedForm {
  try {
    return { ok: true, account: validateAccount(formToInput(form)) };
  } catch (error) {
    if (!(error instanceof OtpauthError)) throw error;
    const field: FormField | null = error.field && error.field !== 'uri' ? error.field : null;
    return { ok: false, field, message: error.message };
  }
}

/** "123456" → ["123", "456"]; 8 digits → 4 + 4; 7 digits → 4 + 3. */
export function splitCode(code: string): [string, string] {
  const half = Math.ceil(code.length / 2);
  return [code.slice(0, half), code.slice(half)];
}

/** A secret in groups of four, easier to read back: "JBSW Y3DP EHPK 3PXP". */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** The letter in the avatar: the issuer's first letter, else the account name's. */
export function initialOf(account: Pick<OtpAccount, 'issuer' | 'accountName'>): string {
  const source = (account.issuer ?? '').trim() || account.accountName.trim();
  const first = [...source][0];
  return first ? first.toLocaleUpperCase() : '?';
}

/** Search by issuer or name, case-insensitive (SPEC §2). */
export function matchesSearch(account: Pick<OtpAccount, 'issuer' | 'accountName'>, query: string): boolean {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return true;
  return (account.issuer ?? '').toLocaleLowerCase().includes(needle) || account.accountName.toLocaleLowerCase().includes(needle);
}
