import type { FastifyInstance, FastifySchema } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../test/support/db';

/**
 * Every cookie-API route answers through a zod response schema from common/contract (the
 * serialiser validates the answer and drops nothing the web relies on unknowingly). The list of
 * routes is the app's own route table, so a route added anywhere is checked without being listed.
 *
 * The route table does not keep schemas, so each Fastify instance made in this file also records
 * the options of every route it registers (the same `onRoute` moment the route table uses).
 */
const seen = vi.hoisted(() => new Map<string, FastifySchema | undefined>());

vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const make = (...args: unknown[]) => {
    const app = (actual.default as (...options: unknown[]) => FastifyInstance)(...args);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) seen.set(`${method} ${route.url}`, route.schema);
    });
    return app;
  };
  return { ...actual, default: make, fastify: make };
});

/** Routes under /api that are not JSON answers to the cookie session, with the reason. */
const NOT_COOKIE_JSON: Array<[RegExp, string]> = [
  [/^(GET|POST|DELETE|PUT|PATCH) \/api\/v1\//, 'the public API (API key): its own schemas in features/verify/schemas.ts'],
  [/^GET \/api\/login$/, 'a redirect to the identity provider, or the local sign-in HTML page'],
  [/^POST \/api\/login\/local$/, 'an HTML form post answered by a redirect'],
  [/^GET \/api\/logout$/, 'a redirect'],
  [/^GET \/api\/auth\/callback\/:providerId$/, "the OIDC callback, answered by better-auth's redirect"],
  [/^POST \/api\/payments\/razorpay\/webhook$/, "Razorpay's signed webhook, not the cookie API"],
  [/^GET \/api\/business\/usage\.csv$/, 'a CSV download'],
  [/^GET \/api\/admin\/audit\.csv$/, 'a CSV download'],
  [/^GET \/api\/business\/receipts\/:id\.pdf$/, 'a PDF download'],
];

interface Route {
  method: string;
  url: string;
}

function isCookieJsonRoute(route: Route): boolean {
  if (!route.url.startsWith('/api/')) return false;
  const key = `${route.method} ${route.url}`;
  return !NOT_COOKIE_JSON.some(([pattern]) => pattern.test(key));
}

const isZodSchema = (schema: unknown) => typeof (schema as { safeParse?: unknown } | null)?.safeParse === 'function';

/** The cookie routes whose schema has no zod response for a 2xx status (what the web reads). */
function routesWithoutResponseSchema(routes: readonly Route[], schemas: ReadonlyMap<string, FastifySchema | undefined>): string[] {
  return routes
    .filter(isCookieJsonRoute)
    .map((r) => `${r.method} ${r.url}`)
    .filter((key) => {
      const response = schemas.get(key)?.response as Record<string, unknown> | undefined;
      return !response || !Object.entries(response).some(([status, schema]) => /^2(\d\d|xx)$/.test(status) && isZodSchema(schema));
    });
}

function failureMessage(missing: string[]): string {
  return [
    `${missing.length} cookie route(s) answer without a zod response schema:`,
    ...missing.map((m) => `  - ${m}`),
    'Give each one `schema: { response: { <status>: <Schema> } }` with the schema in common/contract/<feature>.ts',
    '(and type the web\'s api.ts from it with z.infer); or, if it is not a JSON answer to the cookie session',
    '(a redirect, an HTML page, a file download, a provider callback), add it to NOT_COOKIE_JSON in this file with the reason.',
  ].join('\n');
}

describe('the cookie API contract', () => {
  let t: TestApp;

  // The route table is the same on both engines; one engine is enough to read it.
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  it('gives every cookie route a response schema', () => {
    const cookieRoutes = t.app.routeTable.filter(isCookieJsonRoute);
    // Guard against reading an empty or different table (the check would then pass vacuously).
    expect(cookieRoutes.length).toBeGreaterThan(50);
    for (const route of cookieRoutes) expect(seen.has(`${route.method} ${route.url}`), `${route.method} ${route.url} was not recorded`).toBe(true);
    const missing = routesWithoutResponseSchema(t.app.routeTable, seen);
    expect(missing, failureMessage(missing)).toEqual([]);
  });

  it('flags a cookie route without a response schema, and leaves redirects and the public API alone', async () => {
    const { default: Fastify } = await import('fastify');
    const app: FastifyInstance = Fastify();
    const table: Route[] = [];
    app.addHook('onRoute', (route) => {
      // As the app's own table: HEAD routes are Fastify's automatic twins of GET ones.
      for (const method of [route.method].flat()) if (method !== 'HEAD') table.push({ method, url: route.url });
    });
    app.get('/api/example/without', async () => ({ ok: true }));
    app.get('/api/example/with', { schema: { response: { 200: z.object({ ok: z.boolean() }) } } }, async () => ({ ok: true }));
    app.get('/api/example/plain-json-schema', { schema: { response: { 200: { type: 'object' } } } }, async () => ({ ok: true }));
    app.post('/api/example/error-only', { schema: { response: { 400: z.object({ error: z.unknown() }) } } }, async () => ({ ok: true }));
    app.get('/api/logout', async () => 'bye');
    app.get('/api/v1/profile', async () => ({}));
    // onRoute has run for each: nothing needs compiling to read what was registered.
    expect(routesWithoutResponseSchema(table, seen)).toEqual(['GET /api/example/without', 'GET /api/example/plain-json-schema', 'POST /api/example/error-only']);
    expect(failureMessage(['GET /api/example/without'])).toMatch(/GET \/api\/example\/without[\s\S]*common\/contract/);
    await app.close();
  });
});
