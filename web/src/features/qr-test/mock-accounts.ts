import { Secret, TOTP } from 'otpauth';

/** RFC 6238 defaults, what every authenticator app supports. */
export const PERIOD_SECONDS = 30;
export const DIGITS = 6;

/** A sample TOTP account for testing an authenticator (SPEC §3 "Mock TOTP account"). */
export interface MockAccount {
  id: string;
  name: string;
  issuer: string;
  /** Accent colour of the account's avatar. */
  color: string;
  /** Base32; public demo secrets — never use them for a real account. */
  secret: string;
}

export const MOCK_ACCOUNTS: readonly MockAccount[] = Object.freeze([
  { id: 'sixdigit-demo', name: 'demo@sixdigit.test', issuer: 'Sixdigit Demo', color: '#4f46e5', secret: 'JBSWY3DPEHPK3PXP' },
  { id: 'acme-bank', name: 'priya@acme.example', issuer: 'Acme Bank', color: '#059669', secret: 'HJNXJLUGJOEIPUFAGFUK5PN4BTQHWBDD' },
  { id: 'cloud-deploy', name: 'dev-team', issuer: 'CloudDeploy', color: '#c2410c', secret: 'C56PO5BC2LYGZB7KFS55ID3JKPFNSODB' },
]);

function totpFor(account: Pick<MockAccount, 'name' | 'issuer' | 'secret'>): TOTP {
  return new TOTP({
    issuer: account.issuer,
    label: account.name,
    secret: Secret.fromBase32(account.secret),
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
  });
}

/** `otpauth://totp/Issuer:name?secret=…&issuer=…` — what the QR code holds (the qrData). */
export function otpauthUri(account: MockAccount): string {
  return totpFor(account).toString();
}

/** The code an authenticator shows for this account at `timestamp` (ms), computed locally. */
export function codeAt(account: Pick<MockAccount, 'name' | 'issuer' | 'secret'>, timestamp: number): string {
  return totpFor(account).generate({ timestamp });
}

/** Seconds until the current code changes: 30 at the start of a step, 1 at its end. */
export function secondsRemaining(timestamp: number, period = PERIOD_SECONDS): number {
  return period - (Math.floor(timestamp / 1000) % period);
}

/** The secret in groups of four, as authenticator apps show it for manual entry. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** What a code input keeps: digits only, at most six. */
export function sanitizeCode(value: string): string {
  return value.replace(/\D/g, '').slice(0, DIGITS);
}
