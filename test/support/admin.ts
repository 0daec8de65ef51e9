import { execFileSync } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { issueEnrolmentCode } from '../../server/src/features/admin/mfa-enrolment';
import { signIn } from './db';

export const ADMIN = 'admin@example.com';
export const ORIGIN = 'http://localhost:5000';

/** A code from oathtool (an independent RFC 6238 implementation) at `at` (default now). */
export function oathtoolCode(secret: string, at: Date = new Date()): string {
  return execFileSync('oathtool', ['--totp', '-b', '-N', `@${Math.floor(at.getTime() / 1000)}`, secret]).toString().trim();
}

export function post(app: FastifyInstance, url: string, cookie: string | undefined, payload?: unknown) {
  return app.inject({
    method: 'POST',
    url,
    headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

export function get(app: FastifyInstance, url: string, cookie?: string) {
  return app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
}

export interface AdminSession {
  cookie: string;
  secret: string;
  recoveryCodes: string[];
}

/**
 * A one-time enrolment code, obtained as the operator does: the service function behind
 * `npm run cli -- admin:mfa-enrol-code` (and the start-up log line). It replaces older codes.
 */
export async function operatorEnrolmentCode(app: FastifyInstance): Promise<string> {
  return (await issueEnrolmentCode(app.ctx, 'cli:test')).code;
}

/** Signs the administrator in and sets up MFA from scratch (which also verifies this session). */
export async function adminWithFreshMfa(app: FastifyInstance): Promise<AdminSession> {
  const cookie = await signIn(app, ADMIN, 'Ada Admin');
  const setup = await post(app, '/api/admin/mfa/setup', cookie, { enrolmentCode: await operatorEnrolmentCode(app) });
  if (setup.statusCode !== 200) throw new Error(`mfa setup failed: ${setup.statusCode} ${setup.body}`);
  const { secret } = setup.json();
  const confirm = await post(app, '/api/admin/mfa/confirm', cookie, { totpCode: oathtoolCode(secret) });
  if (confirm.statusCode !== 200) throw new Error(`mfa confirm failed: ${confirm.statusCode} ${confirm.body}`);
  return { cookie, secret, recoveryCodes: confirm.json().recoveryCodes };
}

/** Another sign-in of the administrator (a new session), verified with one of the recovery codes. */
export async function adminSessionVerified(app: FastifyInstance, recoveryCode: string): Promise<string> {
  const cookie = await signIn(app, ADMIN, 'Ada Admin');
  const res = await post(app, '/api/admin/mfa/verify', cookie, { recoveryCode });
  if (res.statusCode !== 200) throw new Error(`mfa verify failed: ${res.statusCode} ${res.body}`);
  return cookie;
}
