import { validateAccount } from './fields';
import { OTP_TYPES, clip, fail, type OtpAccount } from './model';

/** One `otpauth://totp|hotp/…` link (Google's Key URI format): read and written. */

const OTPAUTH = /^otpauth:\/\/([^/?#]*)(?:\/([^?#]*))?(?:\?([^#]*))?(?:#.*)?$/i;

function decodeComponent(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return fail(`The ${what} is not valid percent-encoding.`, 'uri');
  }
}

/** Query parameters with form semantics (`+` is a space), names case-insensitive, first wins. */
function queryParams(query: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const part of query.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const name = decodeComponent((eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, ' '), 'link').toLowerCase();
    const value = eq < 0 ? '' : decodeComponent(part.slice(eq + 1).replace(/\+/g, ' '), `"${clip(name, 20)}" parameter`);
    if (!params.has(name)) params.set(name, value);
  }
  return params;
}

/**
 * Splits a decoded label "Issuer:name" (spaces around the colon ignored). `%3A`/`%3a` have
 * already become ":" by then, so they split too, as Google's Key URI format says.
 */
export function splitLabel(label: string): { prefix: string | null; name: string } {
  const colon = label.indexOf(':');
  if (colon < 0) return { prefix: null, name: label.trim() };
  return { prefix: label.slice(0, colon).trim() || null, name: label.slice(colon + 1).trim() };
}

/** Only the readable part of a link, for messages: "otpauth://totp/Issuer:name" without the query. */
export function describeUri(uri: string): string {
  const match = OTPAUTH.exec(uri.trim());
  if (!match) return clip(uri.trim().split('?')[0] ?? '', 60);
  try {
    return clip(decodeURIComponent(match[2] ?? '') || `otpauth://${match[1]}`, 80);
  } catch {
    return clip(match[2] ?? '', 80);
  }
}

/**
 * Reads one `otpauth://totp/…` or `otpauth://hotp/…` link. The issuer parameter wins over the
 * label prefix; the prefix is used when there is no parameter. Throws `OtpauthError` saying what
 * is wrong; show `INVALID_QR_MESSAGE` to a person who scanned it.
 */
export function parseOtpauthUri(uri: string): OtpAccount {
  const text = uri.trim();
  if (/^otpauth-migration:/i.test(text)) fail('This is a Google Authenticator export link: import it instead.', 'uri');
  const match = OTPAUTH.exec(text);
  if (!match) return fail('Not an otpauth:// link.', 'uri');
  const type = (match[1] ?? '').toLowerCase();
  if (type === 'steam') fail('Steam Guard accounts are not supported.', 'type');
  if (!(OTP_TYPES as readonly string[]).includes(type)) fail(`Unknown OTP type "${clip(type, 20)}" (use totp or hotp).`, 'type');
  const label = decodeComponent(match[2] ?? '', 'label');
  const params = queryParams(match[3] ?? '');
  if (!params.has('secret')) fail('The secret is missing.', 'secret');
  const issuerParam = (params.get('issuer') ?? '').trim();
  // An issuer that itself holds a colon ("A:B") still prefixes the label as a whole.
  const repeated = issuerParam.includes(':') && label.trimStart().startsWith(issuerParam) ? label.trimStart().slice(issuerParam.length).trimStart() : null;
  const { prefix, name } = repeated?.startsWith(':') ? { prefix: issuerParam, name: repeated.slice(1).trim() } : splitLabel(label);
  const issuer = issuerParam || prefix;
  return validateAccount({
    type,
    issuer,
    // A label of only "Issuer:" (or nothing) names the account after its issuer.
    accountName: name || issuer,
    secret: params.get('secret'),
    algorithm: params.get('algorithm'),
    digits: params.get('digits'),
    period: params.get('period'),
    counter: params.get('counter'),
  });
}

/** Writes an account as an otpauth:// link that Google Authenticator, Aegis, 2FAS… read. */
export function toOtpauthUri(account: OtpAccount): string {
  const enc = encodeURIComponent;
  const label = account.issuer ? `${enc(account.issuer)}:${enc(account.accountName)}` : enc(account.accountName);
  const params = [`secret=${account.secret}`];
  if (account.issuer) params.push(`issuer=${enc(account.issuer)}`);
  params.push(`algorithm=${account.algorithm}`, `digits=${account.digits}`);
  params.push(account.type === 'hotp' ? `counter=${account.counter ?? 0}` : `period=${account.period}`);
  return `otpauth://${account.type}/${label}?${params.join('&')}`;
}
