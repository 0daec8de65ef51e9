import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { AppContext } from '../../server/src/context';
import { grantCredits } from '../../server/src/features/credits/service';
import type { QueryTarget } from '../../server/src/db/prepared';
import type { VerificationStatus } from '../../server/src/db/types';
import { insertEnrolments, insertVerification } from '../../server/src/features/verify/repo';
import { encryptionContext } from '../../server/src/features/verify/service';
import { newId } from '../../server/src/lib/ids';
import { signIn } from './db';

/** Helpers shared by the verification API, ledger, business and CLI suites. */

export interface TestBusiness {
  email: string;
  cookie: string;
  apiKey: string;
  /** the test key (sk_test_…) made with the business */
  testApiKey: string;
  businessId: string;
}

let counter = 0;
/** A fresh, unique name for users, e-mails and idempotency keys within one run. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

/** Signs a new user in and creates their business through the dashboard API. */
export async function createBusiness(app: FastifyInstance, companyName = 'Acme Payments', email = `${unique('owner')}@example.com`): Promise<TestBusiness> {
  const cookie = await signIn(app, email, 'Owner Person');
  const res = await app.inject({ method: 'POST', url: '/api/business/create', headers: { cookie, 'sec-fetch-site': 'same-origin' }, payload: { companyName } });
  if (res.statusCode !== 201) throw new Error(`business create failed: ${res.statusCode} ${res.body}`);
  return { email, cookie, apiKey: res.json().apiKey, testApiKey: res.json().testApiKey, businessId: res.json().id };
}

export async function fund(ctx: AppContext, businessId: string, amountPaise: number): Promise<void> {
  await grantCredits(ctx.db, { businessIdOrEmail: businessId, amountPaise, reason: 'test funding' }, { userId: null, label: 'test' });
}

/** Enrols many live users at once, straight into the table (the API's /generate draws a QR code for each). */
export async function enrolMany(ctx: AppContext, businessId: string, count: number): Promise<Array<{ userId: string; secret: string }>> {
  const users = Array.from({ length: count }, () => ({ userId: unique('u'), secret: new Secret({ size: 20 }).base32 }));
  await insertEnrolments(
    ctx.db,
    users.map((u) => ({
      id: newId('enr'),
      businessId,
      externalUserId: u.userId,
      secretEnc: ctx.secrets.encrypt(u.secret, encryptionContext(businessId, u.userId)),
      algorithm: 'SHA1' as const,
      digits: 6,
      period: 30,
      purpose: null,
      livemode: true,
    })),
    new Date(),
  );
  return users;
}

export function bearer(apiKey: string): Record<string, string> {
  return { authorization: `Bearer ${apiKey}` };
}

export interface CodeOptions {
  algorithm?: 'SHA1' | 'SHA256' | 'SHA512';
  digits?: number;
  period?: number;
  timestamp?: number;
}

/** What the end user's authenticator shows for `secret` at `timestamp` (default: now). */
export function totpCode(secret: string, options: CodeOptions = {}): string {
  const { algorithm = 'SHA1', digits = 6, period = 30, timestamp = Date.now() } = options;
  return new TOTP({ secret, algorithm, digits, period }).generate({ timestamp });
}

/** A code of the right shape that is not the current one (nor any within ±12 steps). */
export function wrongCode(secret: string, options: CodeOptions = {}): string {
  const digits = options.digits ?? 6;
  const near = new Set<string>();
  const period = (options.period ?? 30) * 1000;
  for (let k = -12; k <= 12; k++) near.add(totpCode(secret, { ...options, timestamp: Date.now() + k * period }));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(digits, '0');
    if (!near.has(candidate)) return candidate;
  }
}

/** The one error envelope, with request_id equal to the x-request-id header. */
/**
 * The one error envelope: code, a readable message, the request id, the code's entry in the docs,
 * and, on validation_failed only, the refused fields.
 */
export function expectError(res: LightMyRequestResponse, status: number, code: string): void {
  // The schema's 400s list their fields; a service's own validation_failed may not.
  const hasDetails = code === 'validation_failed' && res.json()?.error?.details !== undefined;
  const details = hasDetails ? { details: expect.arrayContaining([{ path: expect.any(String), message: expect.any(String) }]) } : {};
  expect({ status: res.statusCode, body: res.json() }).toEqual({
    status,
    body: { error: { code, message: expect.any(String), request_id: res.headers['x-request-id'], doc_url: `http://localhost:5000/docs#error-${code}`, ...details } },
  });
  expect(res.json().error.message.length).toBeGreaterThan(0);
}

/** Rupee strings from the API ("12.30") as paise. */
export function paise(rupees: string): number {
  return Math.round(Number(rupees) * 100);
}

export async function balancePaise(ctx: AppContext, businessId: string): Promise<number> {
  const row = await ctx.db.selectFrom('business').select('balance_paise').where('id', '=', businessId).executeTakeFirstOrThrow();
  return Number(row.balance_paise);
}

export async function verificationCount(ctx: AppContext, businessId: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('totp_verification')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A live managed check written straight to the table (history at a chosen time), charged ₹0.10. */
export async function recordPastCheck(
  target: QueryTarget,
  check: { id: string; businessId: string; externalUserId: string; status: VerificationStatus; createdAt: Date; responseTimeMs?: number },
): Promise<void> {
  await insertVerification(target, { mode: 'managed', method: 'totp', livemode: true, purpose: null, costPaise: 10, responseTimeMs: 1, ...check });
}
