import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { fastSerializerCompiler } from '../../lib/fast-serializer';
import { apiKeyHash, cachedApiKey, failedLookupRetryAfter, lookupApiKey, recordFailedLookup, type ApiKeyOwner } from '../business/api-keys';
import { findBusinessById, touchApiKey, type Business } from '../business/repo';
import { metricsFor } from '../metrics/metrics';
import { webhookEndpointRoutesV1 } from '../webhooks/routes.v1';
import {
  ErrorEnvelope,
  GenerateBody,
  GenerateResponse,
  IdempotencyHeaders,
  ListUsersQuery,
  ListVerificationsQuery,
  ProfileResponse,
  TestResponse,
  UserList,
  UserObject,
  UserParams,
  userId,
  VerificationList,
  VerificationObject,
  VerificationParams,
  VerifyBody,
  VerifyResponse,
} from './schemas';
import * as service from './service';

declare module 'fastify' {
  interface FastifyRequest {
    business: Business | null;
    apiKeyId: string | null;
    /** false for a test key (sk_test_…): free calls on test data only */
    livemode: boolean;
    startedAt: number;
  }
}

/** last_used_at is worth a write at most once a minute per key, not once per request. */
const TOUCH_INTERVAL_MS = 60_000;
const lastTouched = new Map<string, number>();

/**
 * The JSON API's fixed header set (helmet runs only in the pages' scope, app.ts: its CSP and the
 * rest are for HTML pages): nothing here is a page, framed, cached or sniffed.
 */
const API_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

/** RFC 6750 §3: a 401 names the scheme; `error="invalid_token"` when a key was sent but is not one. */
const BEARER_CHALLENGE = 'Bearer realm="sixdigit"';

/**
 * The API key, from memory without a promise when it is cached (nearly every request: the hook is
 * synchronous for them, issue 23), else from the database once per API_KEY_CACHE_TTL_MS.
 */
function authenticateApiKey(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
  request.startedAt = performance.now();
  reply.headers(API_HEADERS);
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header.trim()) : null;
  if (!match) return done(new AppError('unauthorized', 'Send your API key as "Authorization: Bearer sk_live_…" (or sk_test_… for test mode).', { 'www-authenticate': BEARER_CHALLENGE }));
  const hash = apiKeyHash(match[1]!);
  const { ctx } = request.server;
  const cached = hash ? cachedApiKey(ctx, hash) : undefined;
  if (cached) return admit(request, cached, done);
  // The key first: a valid key is never refused for what others sent from its address — behind
  // one NAT or an untrusted balancer that is everyone — only by its own per-key limit.
  (hash ? lookupApiKey(ctx, hash) : Promise.resolve(undefined)).then((found) => {
    if (found) return admit(request, found, done);
    // Unknown keys (guesses, stale keys): an address that keeps sending them is told to wait.
    const retryAfter = hash ? failedLookupRetryAfter(ctx, request.ip) : null;
    if (retryAfter !== null) {
      return done(new AppError('rate_limited', `Too many invalid API keys from your address. Try again in ${retryAfter} s.`, { 'retry-after': String(retryAfter) }));
    }
    if (hash) recordFailedLookup(ctx, request.ip);
    done(new AppError('unauthorized', 'This API key is not valid or has been revoked.', { 'www-authenticate': `${BEARER_CHALLENGE}, error="invalid_token"` }));
  }, done);
}

function admit(request: FastifyRequest, found: ApiKeyOwner, done: (err?: Error) => void): void {
  if (found.business.suspended || found.ownerBanned) {
    return done(new AppError('suspended', 'API access for this account is suspended. Contact support.'));
  }
  request.business = found.business;
  request.apiKeyId = found.keyId;
  request.livemode = found.livemode;
  const now = Date.now();
  if ((lastTouched.get(found.keyId) ?? 0) + TOUCH_INTERVAL_MS >= now) return done();
  lastTouched.set(found.keyId, now);
  touchApiKey(request.server.ctx.db, found.keyId, new Date(now)).then(() => done(), done);
}

const errors = {
  400: ErrorEnvelope.describe('Invalid body (validation_failed, invalid_json)'),
  401: ErrorEnvelope.describe('Missing, invalid or revoked API key (unauthorized)'),
  403: ErrorEnvelope.describe('API access suspended by the operator (suspended)'),
  413: ErrorEnvelope.describe('Body too large (payload_too_large)'),
  429: ErrorEnvelope.describe('Per-key rate limit (rate_limited); see Retry-After'),
};

/**
 * The per-key rate limit (DESIGN.md §5): one budget per API key across every v1 route and both
 * mounts. A route-level `config.rateLimit` would give each route, on each mount, its own counter.
 */
export function createApiKeyRateLimit(app: FastifyInstance) {
  return app.rateLimit({
    // A test key has its own budget (its own key id) and its own figure, apart from the live key's.
    max: (request) => (request.business ? (request.livemode ? request.business.rateLimitPerMinute : request.server.ctx.config.testKeyRateLimitPerMinute) : 1),
    timeWindow: 60_000,
    keyGenerator: (request) => `key:${request.apiKeyId}`,
  });
}

export interface VerifyRoutesOptions {
  rateLimit: ReturnType<typeof createApiKeyRateLimit>;
}

/** The public API (DESIGN.md §5), mounted at /api/v1 and at /v1. */
export async function verifyRoutesV1(app: FastifyInstance, options: VerifyRoutesOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.decorateRequest('business', null);
  app.decorateRequest('apiKeyId', null);
  app.decorateRequest('livemode', true);
  app.decorateRequest('startedAt', 0);
  app.addHook('onRequest', authenticateApiKey);
  // Per-key limit, each business its own figure; runs as soon as the key is known, before the
  // body is read, so every answer to a recognised key (400, 413 and the rest too) carries RateLimit-*.
  app.addHook('onRequest', options.rateLimit);
  const withBusiness = (request: FastifyRequest) => request.business!;

  r.get(
    '/profile',
    {
      schema: { tags: ['account'], summary: 'Your balance and limits', security: [{ apiKey: [] }], response: { 200: ProfileResponse, 401: errors[401], 403: errors[403], 429: errors[429] } },
    },
    // The balance is read now, not from the key lookup's snapshot.
    async (request) =>
      service.profile(
        (await findBusinessById(request.server.ctx.db, withBusiness(request).id))!,
        request.livemode,
        request.server.ctx.config.testKeyRateLimitPerMinute,
      ) as z.infer<typeof ProfileResponse>,
  );

  r.post(
    '/test',
    {
      schema: { tags: ['account'], summary: 'Check an API key (free)', security: [{ apiKey: [] }], response: { 200: TestResponse, 401: errors[401], 403: errors[403], 429: errors[429] } },
    },
    async (request) => ({ ok: true as const, business_id: withBusiness(request).id, livemode: request.livemode }),
  );

  r.post(
    '/generate',
    {
      schema: {
        tags: ['enrolment'],
        summary: 'Enrol a user: make their TOTP secret, QR code and backup codes',
        security: [{ apiKey: [] }],
        headers: IdempotencyHeaders,
        body: GenerateBody,
        response: {
          201: GenerateResponse,
          ...errors,
          409: ErrorEnvelope.describe('User already enrolled without rotate:true, or Idempotency-Key reused with another body (conflict)'),
        },
      },
    },
    async (request, reply) => {
      const result = await service.generate(request.server.ctx, withBusiness(request), request.livemode, request.body, request.headers['idempotency-key']);
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(result.statusCode).send(result.body as z.infer<typeof GenerateResponse>);
    },
  );

  r.post(
    '/verify',
    {
      // The hottest route's answers (and its errors) by a compiled serializer (lib/fast-serializer.ts).
      serializerCompiler: fastSerializerCompiler,
      schema: {
        tags: ['verification'],
        summary: 'Check a TOTP or backup code (₹0.10 per check that reaches the code)',
        security: [{ apiKey: [] }],
        headers: IdempotencyHeaders,
        body: VerifyBody,
        response: {
          200: VerifyResponse,
          ...errors,
          402: ErrorEnvelope.describe('Balance below ₹0.10 (insufficient_credits); nothing recorded or charged'),
          404: ErrorEnvelope.describe('No enrolled user with that user_id for your business (not_found)'),
          409: ErrorEnvelope.describe('Idempotency-Key reused with another body (conflict)'),
          429: ErrorEnvelope.describe('rate_limited (per key) or too_many_attempts (5 failures for this user in 15 minutes); see Retry-After'),
        },
      },
    },
    async (request, reply) => {
      const result = await service.verify(
        request.server.ctx,
        withBusiness(request),
        request.livemode,
        request.body as service.VerifyInput,
        request.id,
        request.headers['idempotency-key'],
        request.startedAt,
      );
      metricsFor(request.server.ctx).verification(result, performance.now() - request.startedAt);
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(result.statusCode).send(result.body as z.infer<typeof VerifyResponse>);
    },
  );

  r.delete(
    '/users/:user_id',
    {
      schema: {
        tags: ['enrolment'],
        summary: 'Remove an enrolled user and their backup codes',
        security: [{ apiKey: [] }],
        params: z.object({ user_id: userId }),
        response: { 204: z.null().describe('Deleted'), 401: errors[401], 403: errors[403], 404: ErrorEnvelope.describe('No such enrolled user (not_found)'), 429: errors[429] },
      },
    },
    async (request, reply) => {
      await service.deleteUser(request.server.ctx, withBusiness(request), request.livemode, request.params.user_id);
      return reply.status(204).send(null);
    },
  );

  // Lookups: read-only, free, the business's own records only (another's id is 404 like a missing one).
  const lookupErrors = { 400: errors[400], 401: errors[401], 403: errors[403], 429: errors[429] };

  r.get(
    '/verifications',
    {
      schema: {
        tags: ['verification'],
        summary: 'List your verifications, newest first (free)',
        security: [{ apiKey: [] }],
        querystring: ListVerificationsQuery,
        response: { 200: VerificationList, ...lookupErrors, 404: ErrorEnvelope.describe('starting_after names no verification of yours (not_found)') },
      },
    },
    async (request) => service.listVerifications(request.server.ctx, withBusiness(request), request.livemode, request.query),
  );

  r.get(
    '/verifications/:verification_id',
    {
      schema: {
        tags: ['verification'],
        summary: 'Look up one verification (free)',
        security: [{ apiKey: [] }],
        params: VerificationParams,
        response: { 200: VerificationObject, ...lookupErrors, 404: ErrorEnvelope.describe('No verification with that id for your business (not_found)') },
      },
    },
    async (request) => service.getVerification(request.server.ctx, withBusiness(request), request.livemode, request.params.verification_id),
  );

  r.get(
    '/users',
    {
      schema: {
        tags: ['enrolment'],
        summary: 'List your enrolled users, newest first (free)',
        security: [{ apiKey: [] }],
        querystring: ListUsersQuery,
        response: { 200: UserList, ...lookupErrors, 404: ErrorEnvelope.describe('starting_after names no enrolled user of yours (not_found)') },
      },
    },
    async (request) => service.listUsers(request.server.ctx, withBusiness(request), request.livemode, request.query),
  );

  r.get(
    '/users/:user_id',
    {
      schema: {
        tags: ['enrolment'],
        summary: 'Look up one enrolled user: settings, last check, backup codes left (never the secret; free)',
        security: [{ apiKey: [] }],
        params: UserParams,
        response: { 200: UserObject, ...lookupErrors, 404: ErrorEnvelope.describe('No enrolled user with that user_id for your business (not_found)') },
      },
    },
    async (request) => service.getUser(request.server.ctx, withBusiness(request), request.livemode, request.params.user_id),
  );

  // Webhook endpoints: a child of this plugin, so the key check, rate limit and headers above apply.
  await app.register(webhookEndpointRoutesV1);
}
