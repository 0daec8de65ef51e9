import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { adminWithFreshMfa, ORIGIN } from '../../test/support/admin';
import { createTestApp, describeEachDialect, type TestApp } from '../../test/support/db';
import { createBusiness, signInWithRole } from '../../test/support/payments';
import { fund } from '../../test/support/verify-api';
import type { RouteEntry } from './app';

/**
 * Property-based fuzzing of every route the server registers (read from its route table, so a
 * new route is fuzzed without touching this file). Bodies, query strings and path parameters are
 * built from each route's own zod schema — plausible values with hostile ones mixed in — plus
 * hostile headers. The property: never a 5xx; every 4xx is the error envelope; a refused request
 * stores nothing. Seeded (FUZZ_SEED to vary it) and bounded (FUZZ_RUNS) to stay quick in CI.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 1_320_261);
const BODY_RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const HEADER_RUNS = Math.max(3, Math.round(BODY_RUNS / 3));

/** Not JSON APIs (sign-in pages, redirects): fuzzed anonymously, only "never a 5xx". */
const NOT_JSON = new Set(['GET /api/login', 'POST /api/login/local', 'GET /api/logout', 'GET /api/auth/callback/:providerId']);
/** Routes that could end the fuzzing caller's own access: fuzzed last. */
const LAST = [/^POST \/api\/admin\/mfa\//, /^POST \/api\/business\/api-key\/regenerate$/];
/** The tables a refused request must leave alone (audit rows and attempt counters may grow). */
const STORED_TABLES = [
  'business',
  'api_key',
  'ledger_entry',
  'enrolment',
  'backup_code',
  'totp_verification',
  'idempotency_record',
  'webhook',
  'webhook_delivery',
  'account_totp',
  'authenticator_account',
  'payment_request',
  'razorpay_order',
  'notification',
  'contact_message',
  'impersonation',
] as const;

type Caller = 'anonymous' | 'owner' | 'desk' | 'admin' | 'apiKey';

function callerOf(route: string, url: string): Caller {
  if (NOT_JSON.has(route) || url === '/api/payments/razorpay/webhook' || url === '/api/v1/openapi.json') return 'anonymous';
  if (url === '/healthz' || url === '/readyz') return 'anonymous';
  if (url.startsWith('/api/admin/')) return 'admin';
  if (url.startsWith('/api/financial/')) return 'desk';
  if (/^\/(api\/)?v1\//.test(url)) return 'apiKey';
  return 'owner';
}

// ---- hostile values -----------------------------------------------------------------------

/** A marker inside a string that the serializer replaces by raw JSON text (numbers JSON.stringify cannot write, deep nesting). */
const RAW = '\u0001raw:';
const raw = (text: string) => RAW + encodeURIComponent(text);

function serialize(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0001raw:([^"]*)"/g, (_m, encoded: string) => decodeURIComponent(encoded));
}

const surrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const nasty = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\udbff\udbff',
  '\ud83d',
  '💥',
  '\u202eevil',
  '\ufeff',
  '\uffff',
  'e\u0301',
  '%00',
  '%ED%A0%80',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${7*7}',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-1',
  '1e999',
  ' ',
  '',
  'null',
  '\r\nSet-Cookie: x=1',
);
const hostileString = fc.oneof(
  { arbitrary: nasty, weight: 4 },
  { arbitrary: fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), surrogate, nasty), { maxLength: 6 }).map((parts) => parts.join('')), weight: 4 },
  { arbitrary: fc.tuple(fc.string({ maxLength: 8 }), surrogate, fc.string({ maxLength: 8 })).map((parts) => parts.join('')), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 1 },
  // Huge: under and over the body limit.
  { arbitrary: fc.tuple(fc.constantFrom(3_000, 70_000), fc.constantFrom('A', 'é', '𝄞', '\u0000')).map(([n, c]) => c.repeat(n)), weight: 1 },
);
const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, 0.5, -0.000001, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 53), 1e308, -1e308, Number.MIN_VALUE),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  // What JSON can say but JSON.stringify cannot: overflow to ±Infinity, -0, beyond 2^64.
  fc.constantFrom('1e999', '-1e999', '123456789012345678901234567890', '-0', '1E+2', '0.1e-400', '9007199254740993', '-9223372036854775809').map(raw),
);
const protoKey = fc.constantFrom('__proto__', 'constructor', 'prototype');

/** An own property even for "__proto__" (an assignment would set the prototype instead). */
function withKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  return target;
}

const deepNesting = fc
  .tuple(fc.integer({ min: 64, max: 4_000 }), fc.boolean())
  .map(([depth, arrays]) => raw(arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));

const { value: hostileValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    hostileNumber,
    fc.constantFrom(null, true, false),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.array(fc.tuple(fc.oneof(hostileString, protoKey), tie('value')), { maxLength: 3 }).map((entries) => entries.reduce((o, [k, v]) => withKey(o, k, v), {} as Record<string, unknown>)),
    fc.tuple(protoKey, tie('value')).map(([k, v]) => withKey({}, k, k === 'constructor' ? withKey({}, 'prototype', { polluted: v }) : v)),
    deepNesting,
  ),
}));

// ---- values shaped by the route's schema ----------------------------------------------------

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

function jsonSchemaOf(schema: unknown): JsonSchema {
  if (!schema || typeof schema !== 'object') return {};
  if (!('_zod' in schema)) return schema as JsonSchema;
  try {
    return z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return {};
  }
}

const everydayString = fc.constantFrom('user_42', 'owner@example.com', 'https://example.com/hooks', 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', '123456', 'x_missing', 'Acme', 'login');

/** Mostly plausible values of the schema's shape (so requests get past validation), some hostile. */
function valueOf(s: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: plausible(s, depth), weight: 12 }, { arbitrary: hostileValue, weight: 1 });
}

/** A string the schema accepts (length, pattern, format), so the request gets past validation. */
function fittingString(s: JsonSchema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 24, Math.max(min, 24));
  if (s.pattern) {
    try {
      return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= min && v.length <= (s.maxLength ?? Infinity));
    } catch {
      return fc.string({ minLength: min, maxLength: max });
    }
  }
  if (s.format === 'email') return fc.emailAddress();
  if (s.format === 'uri' || s.format === 'url') return fc.webUrl();
  return fc.oneof(everydayString.filter((v) => v.length >= min && v.length <= max), fc.string({ minLength: min, maxLength: max }));
}

function plausible(s: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  if ('const' in s) return fc.constant(s.const);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => plausible(a, depth)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return fc.oneof({ arbitrary: fittingString(s), weight: 3 }, { arbitrary: hostileString, weight: 2 });
    case 'integer':
    case 'number': {
      const min = Math.max(s.minimum ?? -2, -(2 ** 31));
      const max = Math.min(s.maximum ?? 200, 2 ** 31);
      const fitting = type === 'integer' ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true });
      return fc.oneof({ arbitrary: fitting, weight: 3 }, { arbitrary: hostileNumber, weight: 1 });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(valueOf(s.items ?? {}, depth + 1), { maxLength: 3 });
    case 'object': {
      const props = Object.entries(s.properties ?? {});
      if (props.length === 0 || depth > 3) return hostileValue;
      const record = fc.record(Object.fromEntries(props.map(([k, p]) => [k, valueOf(p, depth + 1)])), { requiredKeys: s.required ?? [] });
      // Sometimes an extra key the schema does not know, __proto__ and friends included.
      return fc
        .tuple(record, fc.option(fc.tuple(fc.oneof(protoKey, hostileString), hostileValue), { freq: 8 }))
        .map(([o, extra]) => (extra ? withKey({ ...(o as object) }, extra[0], extra[1]) : o));
    }
    default:
      return hostileValue;
  }
}

/** Only values the schema accepts (as far as a JSON schema can say). */
function fitting(s: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  if ('const' in s) return fc.constant(s.const);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => fitting(a, depth)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return fittingString(s);
    case 'integer':
    case 'number': {
      const min = Math.max(s.minimum ?? 0, -(2 ** 31));
      const max = Math.min(s.maximum ?? 200, 2 ** 31);
      return type === 'integer' ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(fitting(s.items ?? {}, depth + 1), { minLength: 1, maxLength: 2 });
    case 'object': {
      const props = Object.entries(s.properties ?? {});
      if (depth > 3) return fc.constant({});
      return fc.record(Object.fromEntries(props.map(([k, p]) => [k, fitting(p, depth + 1)])), { requiredKeys: s.required ?? [] });
    }
    default:
      return everydayString;
  }
}

/** An otherwise acceptable body with one top-level field made hostile: where handler bugs hide. */
function oneFieldHostile(s: JsonSchema): fc.Arbitrary<unknown> {
  const keys = Object.keys(s.properties ?? {});
  if (keys.length === 0) return hostileValue;
  return fc
    .tuple(fitting(s), fc.constantFrom(...keys), fc.oneof({ arbitrary: hostileString, weight: 3 }, { arbitrary: hostileValue, weight: 1 }))
    .map(([base, key, value]) => withKey({ ...(base as object) }, key, value));
}

/** Percent-encodes anything, lone surrogates included (as their 3-byte CESU-8 form, which is invalid UTF-8). */
function encodeLoose(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(s.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(s[i]!);
    }
  }
  return out;
}

const asText = (v: unknown) => (typeof v === 'string' ? v : serialize(v));
const paramValue = fc.oneof({ arbitrary: everydayString, weight: 2 }, { arbitrary: hostileString.map((s) => s.slice(0, 300)), weight: 3 });

interface Shape {
  method: string;
  /** Always tried first: an acceptable body with one text field holding a lone surrogate or a NUL. */
  examples: Array<[string[], Array<[string, string]>, unknown]>;
  pathFor: (params: string[]) => string;
  paramCount: number;
  hasBody: boolean;
  body: fc.Arbitrary<unknown>;
  query: fc.Arbitrary<Array<[string, string]>>;
}

function shapeOf(route: RouteEntry): Shape {
  const parts = route.url.split(/(:[A-Za-z_]+)/);
  const paramCount = parts.filter((p) => p.startsWith(':')).length;
  const bodySchema = jsonSchemaOf(route.schema?.body);
  const querySchema = jsonSchemaOf(route.schema?.querystring);
  const queryProps = Object.entries(querySchema.properties ?? {});
  const queryKey = fc.oneof({ arbitrary: queryProps.length ? fc.constantFrom(...queryProps.map(([k]) => k)) : fc.constant('q'), weight: 4 }, { arbitrary: fc.oneof(protoKey, hostileString), weight: 1 });
  const textFields = Object.entries(bodySchema.properties ?? {}).filter(([, p]) => p.type === 'string' && !p.enum);
  const base = textFields.length ? (fc.sample(fitting(bodySchema), { seed: SEED, numRuns: 1 })[0] as object) : {};
  const params = Array.from({ length: paramCount }, () => 'x_missing');
  const examples = textFields.flatMap(([k]) => ['\ud800', 'a\u0000b'].map((text): [string[], Array<[string, string]>, unknown] => [params, [], withKey({ ...base }, k, text)]));
  return {
    method: route.method,
    examples,
    paramCount,
    pathFor: (params) => {
      let n = 0;
      return parts.map((p) => (p.startsWith(':') ? encodeLoose(params[n++] ?? '') : p)).join('');
    },
    hasBody: route.method !== 'GET' && route.method !== 'DELETE',
    body: fc.oneof(
      { arbitrary: oneFieldHostile(bodySchema), weight: 4 },
      { arbitrary: valueOf(bodySchema), weight: 2 },
      // An array where an object is expected, and anything at all.
      { arbitrary: fc.array(valueOf(bodySchema), { maxLength: 2 }), weight: 1 },
      { arbitrary: hostileValue, weight: 1 },
    ),
    query: fc.array(fc.tuple(queryKey, fc.oneof(plausible({}, 0).map(asText), queryProps.length ? fc.oneof(...queryProps.map(([, p]) => plausible(p, 1).map(asText))) : everydayString)), {
      maxLength: 3,
    }),
  };
}

// ---- hostile headers ------------------------------------------------------------------------

const hostileHeaders = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=----x',
      'application/vnd.api+json',
      'application/json, text/plain',
      '*/*',
      ';',
      'application/json; boundary="',
    ),
    'idempotency-key': fc.constantFrom('', ' ', 'a'.repeat(300), 'k'.repeat(10_000), 'null', '../x', '%00', '\t', 'ÿþ', 'idem-1'),
    authorization: fc.constantFrom('Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', `Bearer sk_live_${'A'.repeat(5_000)}`, 'Bearer sk_live_ÿþ', 'Token abc', 'Bearer a b c', 'bearer sk_live_x'),
    'x-request-id': fc.constantFrom('', 'a'.repeat(200), '../../', '<x>', 'ok-request-id-1'),
    'x-filler': fc.constantFrom('a'.repeat(16_000), 'ÿ'),
    cookie: fc.constantFrom('session_token=%', `x=${'c'.repeat(8_000)}`, 'better-auth.session_token=..;;', '=;='),
    'x-forwarded-for': fc.constantFrom('1.1.1.1, garbage', '::ffff:127.0.0.1', 'ÿ'),
    'content-encoding': fc.constantFrom('gzip', 'identity', 'br, zz'),
    accept: fc.constantFrom('text/html', '*/*;q=0', 'application/xml'),
  },
  { requiredKeys: [] },
);

/**
 * Host headers (the page heads and the enterprise site build absolute URLs from the Host): what a
 * client may send — spaces, markup, pipes, non-ASCII, nothing, a great deal — most of them naming
 * the enterprise site, whose origin comes from the Host itself.
 */
const hostileHost = fc.oneof(
  fc.constantFrom(
    'enterprise.x y',
    'enterprise.x<y',
    'enterprise.x|y',
    'enterprise.x>y',
    '',
    ' ',
    'enterprise.',
    'enterprise.bücher.example',
    'enterprise.💥',
    'enterprise.x\u0000y',
    'enterprise.x\ty',
    '[::1',
    '[enterprise]',
    'enterprise.x:99999',
    'enterprise.x:',
    'enterprise.1.2.3.999',
    'enterprise.x/y',
    'enterprise.x@y',
    'enterprise.x#y',
    'enterprise.x?y',
    'enterprise.x\\y',
    'enterprise.x"y',
    "enterprise.x'y",
    'enterprise.x%20y',
    'enterprise.x, enterprise.y',
    `enterprise.${'x'.repeat(10_000)}`,
    '<script>alert(1)</script>.enterprise',
    'enterprise.localhost:5000',
    '[::1]:5000',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }).map((text) => `enterprise.${text}`),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary-ascii', maxLength: 300 }),
);
/** Pages served from the route table's catch-all (not in the table): the enterprise ones and the main ones. */
const PAGE_PATHS = ['/', '/pricing', '/docs', '/documentation', '/contact', '/blog', '/blog/implementing-totp-api', '/payment-methods', '/business'];

// ---- the suite ------------------------------------------------------------------------------

function checkEnvelope(res: LightMyRequestResponse): string | null {
  let parsed: unknown;
  try {
    parsed = res.json();
  } catch {
    return `not JSON: ${res.body.slice(0, 120)}`;
  }
  const error = (parsed as { error?: Record<string, unknown> })?.error;
  if (!error || typeof error.code !== 'string' || typeof error.message !== 'string' || !error.message || typeof error.request_id !== 'string') {
    return `not the error envelope: ${res.body.slice(0, 160)}`;
  }
  if (error.request_id !== res.headers['x-request-id']) return `request_id ${String(error.request_id)} is not the x-request-id header`;
  return null;
}

describeEachDialect('fuzzing every route', (dialect) => {
  let t: TestApp;
  const auth: Record<Caller, Record<string, string>> = { anonymous: {}, owner: {}, desk: {}, admin: {}, apiKey: {} };
  let lastCounts = '';
  let address = 0;
  let webDir: string | undefined;

  async function counts(): Promise<string> {
    const selects = STORED_TABLES.map((table) => sql`(select count(*) from ${sql.table(table)})`);
    const { rows } = await sql<Record<string, unknown>>`select ${sql.join(selects)}`.execute(t.ctx.db);
    return Object.values(rows[0]!).map(String).join(',');
  }

  beforeAll(async () => {
    console.log(`fuzz seed ${SEED} (FUZZ_SEED), ${BODY_RUNS} body runs and ${HEADER_RUNS} header runs per route (FUZZ_RUNS) [${dialect}]`);
    // The web app's page and a stand-in server renderer, so GET / and the other pages are fuzzed too.
    webDir = mkdtempSync(join(tmpdir(), 'sixdigit-fuzz-web-'));
    mkdirSync(join(webDir, 'web'));
    writeFileSync(join(webDir, 'web', 'index.html'), readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8'));
    mkdirSync(join(webDir, 'ssr'));
    writeFileSync(join(webDir, 'ssr', 'entry-server.js'), 'export async function renderPage({ path, origin }) { return `<p>${path} at ${origin}</p>`; }\n');
    t = await createTestApp(dialect, { API_RATE_LIMIT_PER_MINUTE: '100000', WEBHOOK_ALLOW_PRIVATE: 'true', WEB_DIST_DIR: join(webDir, 'web') });
    const owner = await createBusiness(t.app, 'Fuzz Owner Co');
    // The API key is another business's: the owner's key regeneration must not revoke it mid-run.
    const apiBusiness = await createBusiness(t.app, 'Fuzz Api Co');
    await fund(t.ctx, apiBusiness.businessId, 50_000);
    const write = { origin: ORIGIN, 'sec-fetch-site': 'same-origin' };
    auth.owner = { cookie: owner.cookie, ...write };
    auth.desk = { cookie: (await signInWithRole(t.ctx, t.app, 'financial_manager')).cookie, ...write };
    auth.admin = { cookie: (await adminWithFreshMfa(t.app)).cookie, ...write };
    auth.apiKey = { authorization: `Bearer ${apiBusiness.apiKey}` };
    lastCounts = await counts();
  });
  afterAll(async () => {
    await t?.close();
    if (webDir) rmSync(webDir, { recursive: true, force: true });
  });

  const routes = () =>
    t.app.routeTable
      .map((r) => ({ r, key: `${r.method} ${r.url}` }))
      .sort((a, b) => Number(LAST.some((re) => re.test(a.key))) - Number(LAST.some((re) => re.test(b.key))));

  /** Sends one request and checks the property; returns what is wrong, or null. */
  async function probe(key: string, caller: Caller, options: InjectOptions): Promise<string | null> {
    address += 1;
    const res = await t.app.inject({ ...options, remoteAddress: `10.99.${(address >> 8) & 255}.${address & 255}` });
    // 501 not_configured is the designed answer of features switched off (Razorpay without keys).
    const designed501 = res.statusCode === 501 && !checkEnvelope(res) && res.json().error.code === 'not_configured';
    if (res.statusCode >= 500 && !designed501) return `${res.statusCode}: ${res.body.slice(0, 200)}`;
    // Reads store nothing these tables hold; counting after them would only slow the run.
    if (NOT_JSON.has(key) || options.method === 'GET') return null;
    const now = await counts();
    if (res.statusCode >= 400) {
      const bad = checkEnvelope(res);
      if (bad) return `${res.statusCode} ${bad}`;
      if (now !== lastCounts) return `${res.statusCode} ${res.json().error.code} but rows changed: ${STORED_TABLES.join(',')} ${lastCounts} → ${now}`;
    }
    lastCounts = now;
    void caller;
    return null;
  }

  function requestOf(shape: Shape, caller: Caller, params: string[], query: Array<[string, string]>, body: unknown, extraHeaders: Record<string, string> = {}): InjectOptions {
    const search = query.map(([k, v]) => `${encodeLoose(k)}=${encodeLoose(v)}`).join('&');
    return {
      method: shape.method as InjectOptions['method'],
      url: shape.pathFor(params) + (search ? `?${search}` : ''),
      headers: { ...auth[caller], ...(shape.hasBody ? { 'content-type': 'application/json' } : {}), ...extraHeaders },
      ...(shape.hasBody ? { payload: serialize(body) } : {}),
    };
  }

  it('never answers 5xx, always answers 4xx in the envelope, and stores nothing on a refusal: hostile bodies, queries and parameters', async () => {
    const failures: string[] = [];
    for (const { r, key } of routes()) {
      const shape = shapeOf(r);
      const caller = callerOf(key, r.url);
      const details = await fc.check(
        fc.asyncProperty(fc.array(paramValue, { minLength: shape.paramCount, maxLength: shape.paramCount }), shape.query, shape.body, async (params, query, body) => {
          const wrong = await probe(key, caller, requestOf(shape, caller, params, query, body));
          if (wrong) throw new Error(wrong);
        }),
        { seed: SEED, numRuns: BODY_RUNS + shape.examples.length, examples: shape.hasBody ? shape.examples : [], endOnFailure: true },
      );
      if (details.failed) failures.push(`${key} as ${caller}: ${String(details.errorInstance)}\n${fc.defaultReportMessage(details)?.slice(0, 1_200)}`);
    }
    expect(failures).toEqual([]);
  }, 90_000);

  it('never answers 5xx, always answers 4xx in the envelope, and stores nothing on a refusal: hostile headers', async () => {
    const failures: string[] = [];
    for (const { r, key } of routes()) {
      const shape = shapeOf(r);
      const caller = callerOf(key, r.url);
      const details = await fc.check(
        fc.asyncProperty(fc.array(paramValue, { minLength: shape.paramCount, maxLength: shape.paramCount }), shape.body, hostileHeaders, async (params, body, headers) => {
          const wrong = await probe(key, caller, requestOf(shape, caller, params, [], body, headers));
          if (wrong) throw new Error(wrong);
        }),
        { seed: SEED, numRuns: HEADER_RUNS, endOnFailure: true },
      );
      if (details.failed) failures.push(`${key} as ${caller}: ${String(details.errorInstance)}\n${fc.defaultReportMessage(details)?.slice(0, 1_200)}`);
    }
    expect(failures).toEqual([]);
  }, 90_000);

  it('never answers 5xx, and answers every 4xx in the envelope: hostile Host headers, on every route and page', async () => {
    const failures: string[] = [];
    const targets = [
      ...routes().map(({ r, key }) => ({ key, caller: callerOf(key, r.url), shape: shapeOf(r), runs: HEADER_RUNS })),
      ...PAGE_PATHS.map((path) => ({ key: `GET ${path}`, caller: 'anonymous' as Caller, shape: shapeOf({ method: 'GET', url: path, carriesSecret: false }), runs: BODY_RUNS * 2 })),
    ];
    for (const { key, caller, shape, runs } of targets) {
      const details = await fc.check(
        fc.asyncProperty(fc.array(paramValue, { minLength: shape.paramCount, maxLength: shape.paramCount }), shape.body, hostileHost, async (params, body, host) => {
          address += 1;
          const res = await t.app.inject({ ...requestOf(shape, caller, params, [], body, { host }), remoteAddress: `10.98.${(address >> 8) & 255}.${address & 255}` });
          const designed501 = res.statusCode === 501 && !checkEnvelope(res) && res.json().error.code === 'not_configured';
          if (res.statusCode >= 500 && !designed501) throw new Error(`${res.statusCode}: ${res.body.slice(0, 200)}`);
          const bad = res.statusCode >= 400 && !NOT_JSON.has(key) ? checkEnvelope(res) : null;
          if (bad) throw new Error(`${res.statusCode} ${bad}`);
        }),
        { seed: SEED, numRuns: runs, endOnFailure: true },
      );
      if (details.failed) failures.push(`${key} as ${caller}: ${String(details.errorInstance)}\n${fc.defaultReportMessage(details)?.slice(0, 1_200)}`);
    }
    expect(failures).toEqual([]);
  }, 90_000);
});
