import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AppContext } from '../../server/src/context';
import { setUserRole } from '../../server/src/features/users/service';
import { unique, type TestBusiness } from './verify-api';

/** Helpers shared by the payment, financial desk and payments CLI suites. */

export const ORIGIN = 'http://localhost:5000';

/** A cookie request as our own pages send it (with the Origin header browsers add to POSTs). */
export function call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  cookie: string | undefined,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: { ...(cookie ? { cookie } : {}), ...(method !== 'GET' ? { origin: ORIGIN, 'sec-fetch-site': 'same-origin' } : {}), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

let address = 0;
/** A different client address per sign-in, so the 30-a-minute sign-in limit never trips a suite. */
function nextAddress(): string {
  address += 1;
  return `10.77.${(address >> 8) & 255}.${address & 255}`;
}

/** Signs in through the local development sign-in (from its own address); the session cookie. */
export async function signIn(app: FastifyInstance, email: string, name = 'Test User'): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/login/local',
    remoteAddress: nextAddress(),
    payload: new URLSearchParams({ email, name }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
  });
  if (res.statusCode !== 303) throw new Error(`local sign-in failed: ${res.statusCode} ${res.body}`);
  return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

/** Signs a new user in and creates their business through the dashboard API. */
export async function createBusiness(app: FastifyInstance, companyName = 'Acme Payments', email = `${unique('owner')}@example.com`): Promise<TestBusiness> {
  const cookie = await signIn(app, email, 'Owner Person');
  const res = await call(app, 'POST', '/api/business/create', cookie, { companyName });
  if (res.statusCode !== 201) throw new Error(`business create failed: ${res.statusCode} ${res.body}`);
  return { email, cookie, apiKey: res.json().apiKey, testApiKey: res.json().testApiKey, businessId: res.json().id };
}

/** A fresh bank-style transaction id (UTR): 12 upper-case letters and digits, unique per run. */
export function newUtr(): string {
  return `UTR${randomBytes(6).toString('hex').toUpperCase()}`.slice(0, 15);
}

export async function signInWithRole(ctx: AppContext, app: FastifyInstance, role: 'financial_manager' | 'user', email = `${unique('fm')}@example.com`) {
  const cookie = await signIn(app, email, 'Desk Person');
  if (role !== 'user') await setUserRole(ctx.db, ctx.config.adminEmail, { email, role }, { userId: null, label: 'test' });
  const user = await ctx.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return { cookie, email, userId: user.id };
}

export async function signInAsAdmin(ctx: AppContext, app: FastifyInstance) {
  const email = ctx.config.adminEmail;
  const cookie = await signIn(app, email, 'The Admin');
  const user = await ctx.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return { cookie, email, userId: user.id };
}

export interface QrOption {
  packId: string;
  amount: string;
  verifications: number;
  qrCodeImageUrl: string;
  upiUri: string;
  upiId: string;
  merchantName: string;
  verificationCode: string;
  paymentReference: string;
  demo: boolean;
}

export async function qrOptions(app: FastifyInstance, cookie: string): Promise<Record<'option1' | 'option2' | 'option3' | 'option4', QrOption>> {
  const res = await call(app, 'GET', '/api/business/static-qr-options', cookie);
  if (res.statusCode !== 200) throw new Error(`static-qr-options failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Picks the ₹5,000 pack, "pays" it and submits the UTR: the pending request as the API answers it. */
export async function submitPayment(app: FastifyInstance, cookie: string, overrides: Record<string, unknown> = {}) {
  const { option1 } = await qrOptions(app, cookie);
  const res = await call(app, 'POST', '/api/business/payment-requests', cookie, {
    paymentReference: option1.paymentReference,
    utr: newUtr(),
    amount: 5000,
    ...overrides,
  });
  if (res.statusCode !== 201) throw new Error(`payment submission failed: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; paymentReference: string; utr: string; amount: string; status: string };
}

export async function impersonate(ctx: AppContext, userEmail: string, adminUserId = 'admin-user-id'): Promise<void> {
  const user = await ctx.db.selectFrom('user').select('id').where('email', '=', userEmail).executeTakeFirstOrThrow();
  await ctx.db.updateTable('session').set({ impersonatedBy: adminUserId }).where('userId', '=', user.id).execute();
}
