import type { FastifySchema } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { ADMIN, adminWithFreshMfa } from '../../../test/support/admin';
import { createTestApp, describeEachDialect, signIn, type TestApp } from '../../../test/support/db';
import { createBusiness, signInWithRole } from '../../../test/support/payments';
import { balancePaise, fund } from '../../../test/support/verify-api';
import { ADMIN_ROUTES, impersonatingCookie, matches, type AdminCaller, type Expected } from '../../../test/support/permissions';
import { NOT_COOKIE_AUTHENTICATED } from './auth/csrf';
import { storeLegacyAccount } from './authenticator/service';
import { issueReceipt } from './receipts/service';

/**
 * Every route the server registers × every kind of caller. The route list is read from the
 * route table at boot, so a route added without an entry here fails the first test by name.
 *
 * Callers act from a browser on our own pages (`Sec-Fetch-Site: same-origin`), except the API
 * key, which is a server sending no browser signals. Ids in paths point at a VICTIM business's
 * real resources (webhook, authenticator account, notification, enrolled user), which no caller
 * below owns: an owner of another business must get the same 404 as for a missing id.
 */
const CALLERS = [
  'anonymous',
  'user',
  'other_owner',
  'financial_manager',
  'admin_without_mfa',
  'admin_with_mfa',
  'admin_impersonating',
  'other_api_key',
] as const;
type Caller = (typeof CALLERS)[number];
type Row = Record<Caller, Expected>;

function isCookieWrite(method: string, path: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method) && path.startsWith('/api/') && !NOT_COOKIE_AUTHENTICATED.some((re) => re.test(path));
}

const everyone = (expected: Expected): Row => Object.fromEntries(CALLERS.map((c) => [c, expected])) as Row;

/** Routes behind a session: no cookie (anonymous, an API key) is 401; every signed-in caller gets `signedIn`. */
const session = (signedIn: Expected, overrides: Partial<Row> = {}): Row => ({ ...everyone(signedIn), anonymous: 401, other_api_key: 401, ...overrides });

/**
 * Routes of the caller's own business. Callers without a business get 404, the owner of another
 * business and an admin acting as an owner get `owner` (their own data, never the victim's).
 */
const ownBusiness = (owner: Expected, overrides: Partial<Row> = {}): Row =>
  session(404, { other_owner: owner, admin_impersonating: owner, ...overrides });

/** The public API: cookies are not credentials there (401); another business's key reaches only its own data. */
const apiKey = (withKey: Expected): Row => ({ ...everyone(401), other_api_key: withKey });

/** The financial desk: the role, or the admin with fresh MFA (reads and writes alike). */
const desk = (allowed: Expected): Row => session(403, { financial_manager: allowed, admin_without_mfa: 403, admin_with_mfa: allowed, admin_impersonating: 403 });

/** The admin area's own matrix (features/admin/matrix.test.ts) mapped onto these callers. */
const fromAdminMatrix = (row: Record<AdminCaller, Expected>): Row => ({
  anonymous: row.anonymous,
  user: row.user,
  other_owner: row.user,
  financial_manager: row.financial_manager,
  admin_without_mfa: row.admin_without_mfa,
  admin_with_mfa: row.admin_with_mfa,
  admin_impersonating: row.admin_impersonating,
  other_api_key: row.anonymous,
});

const NO_RAZORPAY = everyone(501); // card checkout is off in tests: "Coming Soon" for every caller
const v1 = (route: string, row: Row) => ({ [route]: row, [route.replace(' /api/v1/', ' /v1/')]: row });

const MATRIX: Record<string, Row> = {
  // health and the web app (not built in tests: 503 with a hint, for everyone)
  'GET /healthz': everyone(200),
  'GET /readyz': everyone(200),
  'GET /': everyone(503),
  // the public site's machine-readable pages
  'GET /robots.txt': everyone(200),
  'GET /sitemap.xml': everyone(200),
  'GET /blog/feed.xml': everyone(200),
  'GET /api/site/figures': everyone(200), // the landing page's live figures, public
  'GET /metrics': everyone(404), // off unless METRICS_TOKEN is set (metrics/metrics.test.ts covers the token)

  // sign-in
  'GET /api/login': everyone(200),
  'POST /api/login/local': everyone(400), // {} is not a sign-in form; the CSRF cells below prove the guard
  'GET /api/auth/user': session(200),
  'GET /api/auth/callback/:providerId': everyone(302), // no OIDC in tests: back to the app with an error
  'GET /api/logout': everyone(302), // run last: it ends the sessions
  // passkey sign-in needs no session (the second step uses one); never while impersonating
  'POST /api/auth/passkey/options': { ...everyone(200), admin_impersonating: 403 },
  'POST /api/auth/passkey/verify': { ...everyone(400), admin_impersonating: 403 }, // {} is not an assertion

  // the business dashboard
  // {} has no company name: validation, after the session check; never while impersonating (the answer holds the new key)
  'POST /api/business/create': session(400, { admin_impersonating: 403 }),
  'GET /api/business/profile': ownBusiness(200),
  'GET /api/business/dashboard': ownBusiness(200),
  'POST /api/business/api-key/regenerate': ownBusiness(200, { admin_impersonating: 403 }),
  'PUT /api/business/auto-refill': session(400, { admin_impersonating: 403 }),
  'GET /api/business/ledger': ownBusiness(200),
  'GET /api/business/usage.csv': session(400), // from/to are required
  // billing details and receipts (issue 22): the owner's; the victim's receipt is 404 to everyone else
  'GET /api/business/billing': ownBusiness(200),
  'PUT /api/business/billing': session(400, { admin_impersonating: 403 }), // {} names no field; never while impersonating
  'GET /api/business/payments': ownBusiness(200),
  'GET /api/business/receipts/:id.pdf': ownBusiness(404),

  // webhooks: owner only, never while impersonating; the victim's webhook is 404 to everyone else
  'GET /api/webhooks': ownBusiness(200, { admin_impersonating: 403 }),
  'GET /api/webhooks/logs': ownBusiness(200, { admin_impersonating: 403 }),
  'POST /api/webhooks': ownBusiness(400, { admin_impersonating: 403 }),
  'DELETE /api/webhooks/:id': ownBusiness(404, { admin_impersonating: 403 }),
  'PATCH /api/webhooks/:id/toggle': session(400, { admin_impersonating: 403 }),
  'POST /api/webhooks/:id/test': ownBusiness(404, { admin_impersonating: 403 }),
  'POST /api/webhooks/logs/:id/resend': ownBusiness(404, { admin_impersonating: 403 }),

  // payments (bank/UPI, Razorpay)
  'GET /api/business/payment-config': session(200),
  'GET /api/payments/methods': everyone(200), // public: what a visitor may pay with
  'GET /api/business/static-qr-options': ownBusiness(200, { admin_impersonating: 403 }),
  'POST /api/business/payment-requests': ownBusiness(404, { admin_impersonating: 403 }), // an unknown payment reference
  'GET /api/business/payment-requests': ownBusiness(200),
  'GET /api/business/notifications': ownBusiness(200),
  'POST /api/business/notifications/:id/read': ownBusiness(404),
  'POST /api/business/create-order': session(501), // card checkout is off in tests: "Coming Soon" before any other check
  'POST /api/business/verify-payment': session(400), // {} is not a checkout result
  // auto-refill's card/UPI mandate: Razorpay is off in tests (501); never while impersonating (a payment setting)
  'POST /api/business/auto-refill/mandate': session(501, { admin_impersonating: 403 }),
  'POST /api/business/auto-refill/mandate/confirm': session(400, { admin_impersonating: 403 }), // {} is not a checkout result
  'DELETE /api/business/auto-refill/mandate': session(501, { admin_impersonating: 403 }),
  'POST /api/payments/razorpay/webhook': NO_RAZORPAY,

  // the financial desk
  'GET /api/financial/pending-approvals': desk(200),
  'GET /api/financial/stats': desk(200),
  'GET /api/financial/recent': desk(200),
  'POST /api/financial/approve-payment/:id': desk(404),
  'POST /api/financial/reject-payment/:id': desk(400), // the reason is checked first
  'GET /api/financial/contact-messages': desk(200),
  'POST /api/financial/escalate-message/:id': desk(400),
  'POST /api/financial/close-message/:id': desk(400),

  // the account TOTP and the personal authenticator: the person's own secrets, never an impersonator's
  'GET /api/user/totp-status': session(200, { admin_impersonating: 403 }), // issue 19: the second factor is not the impersonator's to see
  'POST /api/user/setup-totp': session('allowed', { admin_impersonating: 403 }),
  'GET /api/user/generate-totp': session('allowed', { admin_impersonating: 403 }),
  'GET /api/user/totp-accounts': session(200, { admin_impersonating: 403 }),
  // the end-to-end encrypted vault: ciphertext only, yet never to an impersonator; nobody here has a vault
  'GET /api/user/vault': session(200, { admin_impersonating: 403 }),
  'POST /api/user/vault': session(400, { admin_impersonating: 403 }), // {} has no slots
  'DELETE /api/user/vault': session(404, { admin_impersonating: 403 }),
  'PUT /api/user/vault/keys': session(400, { admin_impersonating: 403 }),
  'PUT /api/user/vault/entries/:id': session(400, { admin_impersonating: 403 }),
  'DELETE /api/user/vault/entries/:id': session(400, { admin_impersonating: 403 }), // no baseVersion
  'GET /api/user/notices': session(200),
  'POST /api/user/notices/:id/read': session(404, { admin_impersonating: 403 }), // only the person hides their notices

  // ── issue 19 (branch second-factor): the account TOTP as a second factor, signed-in devices ──
  // The second step: no caller here is half signed in (second-factor.test.ts covers that one).
  'POST /api/auth/second-factor': session(409, { admin_impersonating: 403 }), // these sessions are complete: nothing to finish
  'POST /api/user/confirm-totp': session(400, { admin_impersonating: 403 }), // {} is not a code
  'POST /api/user/check-totp': session(400, { admin_impersonating: 403 }),
  'POST /api/user/totp-backup-codes': session(400, { admin_impersonating: 403 }),
  'POST /api/user/disable-totp': session('allowed', { admin_impersonating: 403 }), // cancels the pending setup made above, or 409 when none
  'GET /api/user/sessions': session(200, { admin_impersonating: 403 }),
  'DELETE /api/user/sessions/:id': session(404, { admin_impersonating: 403 }),
  // Run last (it ends sessions). admin_without_mfa is the same account as admin_with_mfa, and
  // signs that session out just before its turn: 401 is the proof it worked.
  'POST /api/user/sessions/revoke-others': session(200, { admin_impersonating: 403, admin_with_mfa: 401 }),
  // ── end of issue 19 ──
  // passkeys: the person's own way in, never an impersonator's
  'GET /api/user/passkeys': session(200, { admin_impersonating: 403 }),
  'POST /api/user/passkeys/registration-options': session(200, { admin_impersonating: 403 }),
  'POST /api/user/passkeys': session(400, { admin_impersonating: 403 }),
  'PATCH /api/user/passkeys/:id': session(400, { admin_impersonating: 403 }),
  'DELETE /api/user/passkeys/:id': session(404, { admin_impersonating: 403 }),

  // support
  'POST /api/luna/chat': everyone(400), // Luna answers visitors too (from the docs only)
  'POST /api/contact': everyone('4xx'), // 400, or 429 once this address has sent 5
  'GET /api/contact/mine': session(200),
  'GET /api/contact/status': everyone(400),
  // e-mail (issue 22): one's own preferences; unsubscribe links are the token's authority, signed out
  'GET /api/user/email-preferences': session(200),
  'PUT /api/user/email-preferences': session(400, { admin_impersonating: 403 }), // only the person chooses
  'GET /api/mail/unsubscribe': everyone(400), // no token
  'POST /api/mail/unsubscribe': everyone(400),
  'POST /api/mail/one-click/:token': everyone(400), // ":token" is not a token

  // the public API, on both mounts; the victim's enrolled user is 404 to another business's key
  ...v1('GET /api/v1/profile', apiKey(200)),
  ...v1('POST /api/v1/test', apiKey(200)),
  ...v1('POST /api/v1/generate', apiKey(400)),
  ...v1('POST /api/v1/verify', apiKey(404)),
  ...v1('DELETE /api/v1/users/:user_id', apiKey(404)),
  // lookups: another business's key sees its own (empty) lists and 404 for the victim's records
  ...v1('GET /api/v1/users', apiKey(200)),
  ...v1('GET /api/v1/users/:user_id', apiKey(404)),
  ...v1('GET /api/v1/verifications', apiKey(200)),
  ...v1('GET /api/v1/verifications/:verification_id', apiKey(404)),
  // webhook endpoints: another business's key gets its own (empty) list and 404 for the victim's endpoint
  ...v1('GET /api/v1/webhook_endpoints', apiKey(200)),
  ...v1('POST /api/v1/webhook_endpoints', apiKey(400)), // {} names no url or events
  ...v1('GET /api/v1/webhook_endpoints/:id', apiKey(404)),
  ...v1('PATCH /api/v1/webhook_endpoints/:id', apiKey(404)),
  ...v1('DELETE /api/v1/webhook_endpoints/:id', apiKey(404)),
  ...v1('POST /api/v1/webhook_endpoints/:id/test', apiKey(404)),
  ...v1('GET /api/v1/webhook_endpoints/:id/deliveries', apiKey(404)),
  'GET /api/v1/openapi.json': everyone(200),

  // the admin area, as its own matrix says
  ...Object.fromEntries(Object.entries(ADMIN_ROUTES).map(([route, row]) => [route, fromAdminMatrix(row)])),
};
for (const route of Object.keys(MATRIX)) MATRIX[route] = { ...MATRIX[route]! }; // rows are edited below: no sharing

// A server with an API key sends no browser signals: on cookie writes the CSRF guard refuses it
// (403 forbidden_origin) before any session check; the cells below say so for every such route.
for (const [route, row] of Object.entries(MATRIX)) {
  const [method, path] = route.split(' ') as [string, string];
  if (isCookieWrite(method, path)) row.other_api_key = 403;
}

/** The victim business's enrolled end user (the public API's user_id). */
const VICTIM_USER = 'victim-user-1';

/** Request bodies that get past validation, so the permission check behind it is what answers. */
const PAYLOADS: Record<string, object> = {
  'POST /api/business/payment-requests': { paymentReference: 'SDPAYMATRIX1', utr: 'UTRMATRIX1234', amount: 5000 },
  'POST /api/business/create-order': { amount: 5000 },
  'POST /api/business/auto-refill/mandate': { method: 'card', packId: 'basic', thresholdRupees: 500 },
  // Another business's key asking about the victim's enrolled user: unknown to it, never charged.
  'POST /api/v1/verify': { user_id: VICTIM_USER, totp_code: '123456' },
  'POST /v1/verify': { user_id: VICTIM_USER, totp_code: '123456' },
};

/** Routes that end the caller's session: run after every other route, in this order. */
const ENDS_SESSIONS = new Set(['POST /api/user/sessions/revoke-others', 'GET /api/logout']);

/**
 * The way to GET admin MFA: the administrator's cookie alone must reach these (status, set-up,
 * first code, verification), or MFA could never be set up or verified. The only admin routes
 * exempt from "no fresh MFA, no answer" below.
 */
const MFA_GATEWAY = new Set(['GET /api/admin/mfa/status', 'POST /api/admin/mfa/setup', 'POST /api/admin/mfa/confirm', 'POST /api/admin/mfa/verify']);

/**
 * Answer fields that hold a full credential: an API key, a TOTP secret and its other forms
 * (otpauth URI, QR, the grouped "manual entry"), backup or recovery codes, a signing secret.
 * (A payment QR — `qrCodeImageUrl`, a public UPI link — is not one.)
 */
const SECRET_FIELD = (name: string) =>
  /secret$/i.test(name) || name === 'apiKey' || /otpauth/i.test(name) || /^qrCode(Url)?$/.test(name) || name === 'manualEntry' || /^(backup|recovery)Codes$/.test(name);

/** Whether a JSON Schema node holds text (a string, or a list of them, possibly nullable). */
function holdsText(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  const obj = node as Record<string, unknown>;
  if (obj.type === 'string' || (Array.isArray(obj.type) && obj.type.includes('string'))) return true;
  if (obj.type === 'array') return holdsText(obj.items);
  return ['anyOf', 'oneOf', 'allOf'].some((k) => Array.isArray(obj[k]) && (obj[k] as unknown[]).some(holdsText));
}

/**
 * Every text field anywhere in a route's response schemas (zod or JSON Schema), by name. Text
 * only: `apiKey: { prefix, createdAt }` (the admin's view of a business) is not a key.
 */
function responseFieldNames(schema: FastifySchema | undefined): string[] {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(walk);
    const obj = node as Record<string, unknown>;
    if (obj.properties && typeof obj.properties === 'object') {
      for (const [key, value] of Object.entries(obj.properties)) if (holdsText(value)) names.add(key);
    }
    for (const value of Object.values(obj)) walk(value);
  };
  for (const response of Object.values((schema?.response ?? {}) as Record<string, unknown>)) {
    walk(response instanceof z.ZodType ? z.toJSONSchema(response, { unrepresentable: 'any', io: 'output' }) : response);
  }
  return [...names];
}

/** The public API takes an API key, never a session: no impersonation reaches it. */
const API_KEY_ONLY = (path: string) => path.startsWith('/api/v1/') || path.startsWith('/v1/');

describeEachDialect('permission matrix: every route × every caller', (dialect) => {
  let t: TestApp;
  let impersonatedUserId: string;
  let keyBusinessId: string;
  const KEY_BALANCE = 1_000;
  const auth: Partial<Record<Caller, Record<string, string>>> = {};
  const victim = { webhookId: '', totpAccountId: '', notificationId: '', enrolledUserId: VICTIM_USER, verificationId: '', receiptId: '' };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const sameOrigin = { 'sec-fetch-site': 'same-origin' };
    const browser = (cookie: string) => ({ cookie, ...sameOrigin });

    // The victim: a business with one of each resource the id routes name.
    const owner = await createBusiness(t.app, 'Victim Co');
    const hook = await t.app.inject({ method: 'POST', url: '/api/webhooks', headers: browser(owner.cookie), payload: { url: 'https://9.9.9.9/hooks', events: ['credit.low'] } });
    victim.webhookId = hook.json().id;
    const ownerId = (await t.ctx.db.selectFrom('user').select('id').where('email', '=', owner.email).executeTakeFirstOrThrow()).id;
    victim.totpAccountId = await storeLegacyAccount(t.ctx, ownerId, { type: 'totp', issuer: null, accountName: 'victim', secret: 'JBSWY3DPEHPK3PXP', algorithm: 'SHA1', digits: 6, period: 30, counter: null });
    victim.notificationId = 'ntf_matrix_victim';
    await t.ctx.db
      .insertInto('notification')
      .values({ id: victim.notificationId, business_id: owner.businessId, kind: 'payment_approved', title: 'Payment approved', message: 'x', subject_id: null, created_at: new Date(), read_at: null })
      .execute();
    const enrolled = await t.app.inject({ method: 'POST', url: '/api/v1/generate', headers: { authorization: `Bearer ${owner.apiKey}` }, payload: { user_id: victim.enrolledUserId } });
    // One recorded check of the victim's, for the verification lookup (a wrong code: recorded, charged once).
    await fund(t.ctx, owner.businessId, 10);
    const checked = await t.app.inject({ method: 'POST', url: '/api/v1/verify', headers: { authorization: `Bearer ${owner.apiKey}` }, payload: { user_id: victim.enrolledUserId, totp_code: '000000' } });
    victim.verificationId = checked.json().verification_id;
    victim.receiptId = (
      await t.ctx.db.transaction().execute((trx) =>
        issueReceipt(trx, {
          config: t.ctx.config,
          businessId: owner.businessId,
          ledgerEntryId: 'led_matrix_victim',
          payment: { kind: 'payment_request', id: 'pmt_matrix_victim' },
          method: 'upi',
          methodLabel: 'UPI',
          paymentReference: 'SDMATRIX01',
          transactionId: 'UTR000000000001',
          amountPaise: 10_000,
          issuedAt: new Date(),
        }),
      )
    ).id;
    if (!victim.webhookId || !victim.totpAccountId || enrolled.statusCode !== 201 || !victim.verificationId) throw new Error(`victim fixtures failed: ${hook.body} ${enrolled.body}`);

    const admin = await adminWithFreshMfa(t.app);
    auth.anonymous = sameOrigin;
    auth.user = browser(await signIn(t.app, 'plain@example.com', 'Plain User'));
    auth.other_owner = browser((await createBusiness(t.app, 'Other Co')).cookie);
    auth.financial_manager = browser((await signInWithRole(t.ctx, t.app, 'financial_manager')).cookie);
    auth.admin_without_mfa = browser(await signIn(t.app, ADMIN, 'Ada Admin'));
    auth.admin_with_mfa = browser(admin.cookie);
    const impersonated = await createBusiness(t.app, 'Impersonated Co');
    impersonatedUserId = (await t.ctx.db.selectFrom('user').select('id').where('email', '=', impersonated.email).executeTakeFirstOrThrow()).id;
    auth.admin_impersonating = browser(await impersonatingCookie(t, impersonatedUserId));
    // Funded, so its verify reaches the user lookup (an empty balance answers 402 before it).
    const keyBusiness = await createBusiness(t.app, 'Key Co');
    keyBusinessId = keyBusiness.businessId;
    await fund(t.ctx, keyBusinessId, KEY_BALANCE);
    auth.other_api_key = { authorization: `Bearer ${keyBusiness.apiKey}` };
  });
  afterAll(async () => t?.close());

  function urlFor(path: string): string {
    return path
      .replace(/^\/api\/webhooks\/:id/, `/api/webhooks/${victim.webhookId}`)
      .replace(/^((\/api)?\/v1\/webhook_endpoints)\/:id/, `$1/${victim.webhookId}`)
      .replace(/^\/api\/business\/notifications\/:id/, `/api/business/notifications/${victim.notificationId}`)
      .replace(/^\/api\/business\/receipts\/:id/, `/api/business/receipts/${victim.receiptId}`)
      .replace(':user_id', victim.enrolledUserId)
      .replace(':verification_id', victim.verificationId)
      .replace(':providerId', 'oidc')
      .replace(/:id\b/g, 'x_missing');
  }

  function send(method: string, path: string, headers: Record<string, string>) {
    const write = !['GET', 'HEAD', 'DELETE'].includes(method);
    return t.app.inject({ method: method as 'GET', url: urlFor(path), headers, ...(write ? { payload: PAYLOADS[`${method} ${path}`] ?? {} } : {}) });
  }

  const registered = () => [...new Set(t.app.routeTable.map((r) => `${r.method} ${r.url}`))];

  it('has an entry for every route the server registers, and none for a route that is gone', () => {
    const missing = registered().filter((route) => !(route in MATRIX));
    const stale = Object.keys(MATRIX).filter((route) => !registered().includes(route));
    expect(missing, `routes with no permission-matrix entry (add them to server/src/features/permissions.matrix.test.ts): ${missing.join(', ')}`).toEqual([]);
    expect(stale, `matrix entries for routes the server no longer registers: ${stale.join(', ')}`).toEqual([]);
    expect(registered().length).toBeGreaterThan(80);
  });

  /** What each caller got on each route in the run below (the admin-MFA rule reads it). */
  const answers = new Map<string, Partial<Record<Caller, number>>>();

  it('answers every caller as the matrix says, on every route', async () => {
    const failures: string[] = [];
    const routes = Object.keys(MATRIX).filter((r) => registered().includes(r));
    const ordered = [...routes.filter((r) => !ENDS_SESSIONS.has(r)), ...[...ENDS_SESSIONS].filter((r) => routes.includes(r))];
    for (const route of ordered) {
      const [method, path] = route.split(' ') as [string, string];
      for (const caller of CALLERS) {
        const res = await send(method, path, auth[caller]!);
        answers.set(route, { ...answers.get(route), [caller]: res.statusCode });
        const want = MATRIX[route]![caller];
        if (!matches(want, res.statusCode)) failures.push(`${route} as ${caller}: expected ${want}, got ${res.statusCode} ${res.body.slice(0, 100)}`);
        // An impersonating admin is told why, with one code, wherever the impersonation is the reason.
        if (caller === 'admin_impersonating' && res.statusCode === 403 && MATRIX[route]!.user !== 403 && res.json().error?.code !== 'impersonation_forbidden') {
          failures.push(`${route} as ${caller}: 403 with ${res.json().error?.code}, expected impersonation_forbidden`);
        }
        if (res.statusCode >= 400 && res.headers['content-type']?.toString().includes('json')) {
          if (typeof res.json().error?.code !== 'string') failures.push(`${route} as ${caller}: ${res.statusCode} outside the error envelope`);
        }
      }
      if (route === 'POST /api/admin/impersonation/stop') auth.admin_impersonating!.cookie = (await impersonatingCookie(t, impersonatedUserId)).toString();
    }
    expect(failures).toEqual([]);
  });

  // Read from what the server answered, not from the matrix's own cells: a new route the admin
  // can reach fails here by name even if its matrix row (wrongly) lets the admin in without MFA.
  it('refuses the administrator without fresh MFA on every route the administrator reaches with it, except what anyone signed in may use as themselves', () => {
    expect(answers.size, 'the matrix run above records every answer').toBeGreaterThan(80);
    const failures: string[] = [];
    for (const [route, got] of answers) {
      const withMfa = got.admin_with_mfa!;
      if (withMfa < 200 || withMfa >= 300) continue; // the admin is not let in here at all
      if (got.user === withMfa) continue; // any signed-in person gets the same: their own account, not an admin power
      if (MFA_GATEWAY.has(route)) continue;
      if (got.admin_without_mfa !== 401 && got.admin_without_mfa !== 403) {
        failures.push(`${route}: the admin with fresh MFA gets ${withMfa}, a plain user ${got.user}, and the admin's cookie WITHOUT MFA gets ${got.admin_without_mfa} (must be 403 mfa_required: use assertAdminWithFreshMfa in features/admin/guard.ts)`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('flags every cookie route whose answer can carry a key, secret or backup code, so an impersonating admin is refused it', () => {
    const carrying = t.app.routeTable.filter((r) => !API_KEY_ONLY(r.url) && responseFieldNames(r.schema).some(SECRET_FIELD));
    // The ones known today (the list may grow; it may not shrink without a reason).
    expect(carrying.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'POST /api/business/create',
        'POST /api/business/api-key/regenerate',
        'POST /api/webhooks',
        'POST /api/user/setup-totp',
        'POST /api/user/totp-backup-codes',
        // the authenticator's plaintext add, import and QR reading left with the vault (issue 20)
        'GET /api/user/totp-accounts',
        'POST /api/admin/mfa/setup',
        'POST /api/admin/mfa/confirm',
      ]),
    );
    const unflagged = carrying.filter((r) => !r.carriesSecret).map((r) => `${r.method} ${r.url} (${responseFieldNames(r.schema).filter(SECRET_FIELD).join(', ')})`);
    expect(unflagged, 'routes answering a secret without `config: { carriesSecret: true }` (features/admin/impersonation-guard.ts)').toEqual([]);
  });

  it("charged nothing to the other business's key for asking about the victim's user", async () => {
    expect(await balancePaise(t.ctx, keyBusinessId)).toBe(KEY_BALANCE);
  });

  it('refuses every cookie write that shows no same-site signal, or a foreign one (403 forbidden_origin)', async () => {
    const failures: string[] = [];
    // A fresh owner session: the matrix above ended the others (GET /api/logout).
    const cookie = (await createBusiness(t.app, 'CSRF Co')).cookie;
    const writes = registered().filter((route) => {
      const [method, path] = route.split(' ') as [string, string];
      return isCookieWrite(method, path);
    });
    expect(writes.length).toBeGreaterThan(30);
    const hostile: Array<[string, Record<string, string>]> = [
      ['no Origin, no Sec-Fetch-Site, no Referer', { cookie }],
      ['a foreign Referer', { cookie, referer: 'https://evil.example/x' }],
      ['Sec-Fetch-Site: cross-site', { cookie, 'sec-fetch-site': 'cross-site' }],
      ['Sec-Fetch-Site: same-site (a sibling subdomain)', { cookie, 'sec-fetch-site': 'same-site' }],
      ['a foreign Origin with a same-origin Sec-Fetch-Site', { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }],
    ];
    for (const route of writes) {
      const [method, path] = route.split(' ') as [string, string];
      for (const [name, headers] of hostile) {
        const res = await send(method, path, headers);
        if (res.statusCode !== 403 || res.json().error?.code !== 'forbidden_origin') failures.push(`${route} with ${name}: got ${res.statusCode} ${res.body.slice(0, 80)}`);
      }
      // The same request with a same-origin signal gets past the guard (the matrix above says what it then answers).
      const res = await send(method, path, { cookie, 'sec-fetch-site': 'same-origin' });
      if (res.statusCode === 403 && res.json().error?.code === 'forbidden_origin') failures.push(`${route} with Sec-Fetch-Site: same-origin: refused as cross-site`);
    }
    expect(failures).toEqual([]);
  });

  it('never asks API-key and provider-signed routes for a browser signal', async () => {
    const other = registered().filter((route) => {
      const [method, path] = route.split(' ') as [string, string];
      return !['GET'].includes(method) && !isCookieWrite(method, path);
    });
    expect(other).toEqual(expect.arrayContaining(['POST /api/v1/verify', 'POST /v1/verify', 'POST /api/payments/razorpay/webhook']));
    for (const route of other) {
      const [method, path] = route.split(' ') as [string, string];
      const res = await send(method, path, { ...auth.other_api_key!, origin: 'https://customer-backend.example' });
      expect(res.statusCode, route).not.toBe(403);
    }
  });
});
