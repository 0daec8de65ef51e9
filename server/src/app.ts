import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifySchema } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { AppContext } from './context';
import { adminBusinessRoutes } from './features/admin/businesses-routes';
import { refuseSecretsWhileImpersonating } from './features/admin/impersonation-guard';
import { adminImpersonationRoutes } from './features/admin/impersonation-routes';
import { auditImpersonatedWrite } from './features/admin/impersonation-service';
import { adminMfaRoutes } from './features/admin/mfa-routes';
import { adminRoutes } from './features/admin/routes';
import { installCsrfGuard } from './features/auth/csrf';
import { authRoutes } from './features/auth/routes';
import { userTotpRoutes } from './features/authenticator/routes';
import { secondFactorRoutes } from './features/auth/second-factor-routes';
import { mailRoutes } from './features/mail/routes';
import { sessionRoutes } from './features/sessions/routes';
import { shareApiKeyInvalidation } from './features/business/api-keys';
import { businessRoutes } from './features/business/routes';
import { receiptRoutes } from './features/receipts/routes';
import { contactRoutes } from './features/contact/routes';
import { financialRoutes } from './features/financial/routes';
import { healthRoutes } from './features/health/routes';
import { lunaRoutes } from './features/luna/routes';
import { installMetrics } from './features/metrics/routes';
import { passkeyRoutes } from './features/passkeys/routes';
import { paymentMethodsRoutes } from './features/payments/methods-routes';
import { paymentRoutes, razorpayWebhookRoutes } from './features/payments/routes';
import { autoRefillRoutes } from './features/autorefill/routes';
import { createFiguresSource, type FiguresSource } from './features/site/figures';
import { siteFiguresRoutes, siteRoutes } from './features/site/routes';
import { loadPageRenderer } from './features/site/prerender';
import { pageHtml } from './features/site/service';
import { COMPRESSIBLE_FILE, CompressedBodyCache, sendCompressed } from './features/static/compression';
import { completePublicApiDocument } from './features/verify/openapi';
import { createApiKeyRateLimit, verifyRoutesV1 } from './features/verify/routes.v1';
import { webhookRoutes } from './features/webhooks/routes';
import { installErrorHandling } from './lib/error-handler';
import { AppError, envelope } from './lib/errors';
import { allowedMethods } from './lib/allowed-methods';
import { refuseMalformedHost } from './lib/http';
import { installWellFormedText } from './lib/well-formed-text';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** the shared rate-limit store's connection, when REDIS_URL is set (the admin dashboard pings it) */
    redis: Redis | null;
    routeTable: readonly RouteEntry[];
    /** the landing page's live figures, counted at most once an hour (features/site/figures.ts) */
    siteFigures: FiguresSource;
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  /** as registered (zod): the fuzz suite builds requests from it */
  schema?: FastifySchema | undefined;
  /** the answer carries a full key, secret or backup code (refused while impersonating) */
  carriesSecret: boolean;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;
/** Fits any legal user_id in DELETE /users/{user_id}: 128 characters, percent-encoded (≤ 12 each). */
const MAX_PARAM_LENGTH = 128 * 12;

export interface BuildAppOptions {
  logger?: boolean | Record<string, unknown>;
  /** where the configured logger writes (tests read what would reach the operator's logs) */
  logStream?: { write(line: string): void };
}

export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    logger:
      options.logger ??
      (config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
            ...(options.logStream ? { stream: options.logStream } : {}),
          }),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Errors raised while routing, before any hook runs, leave in the one envelope too.
    frameworkErrors: (error, request, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      void (reply as FastifyReply)
        .status(tooLong ? 414 : 400)
        .header('x-request-id', request.id)
        .send(
          envelope(tooLong ? 'uri_too_long' : 'bad_request', tooLong ? 'A part of the URL is too long.' : 'The URL is not valid (bad percent-encoding).', request.id, {
            docsBase: config.publicUrl,
          }),
        );
    },
  });

  app.decorate('ctx', ctx);
  app.decorate('siteFigures', createFiguresSource(ctx.db, app.log));
  // Every route as registered (tests read it: a permission test cannot forget a route).
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routeTable.push({ method, url: route.url, schema: route.schema, carriesSecret: route.config?.carriesSecret === true });
  });
  app.decorateRequest('currentUser', null);
  app.decorateRequest('impersonatedBy', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('secondFactorPending', false);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  installWellFormedText(app);

  // HTML forms (the local sign-in) post urlencoded bodies.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  // The request id, the Host check and the metrics run for every route and page. The Host is
  // checked once, here (lib/http.ts). One synchronous hook: an async one costs every request a
  // promise and a turn of the microtask queue (issue 23).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done(refuseMalformedHost(request) ?? undefined);
  });
  installMetrics(app);

  // Shared rate-limit counters for several instances. Connected before we listen, so a wrong
  // REDIS_URL stops the start with a clear error instead of failing requests later.
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 5000 })
    : undefined;
  app.decorate('redis', redis ?? null);
  if (redis) {
    try {
      await redis.connect();
    } catch (err) {
      redis.disconnect();
      throw new Error(`REDIS_URL: cannot connect to Redis (${(err as Error).message})`, { cause: err });
    }
  }
  // Key revocation, suspension and bans reach every instance's key cache at once.
  const stopSharingKeys = redis ? await shareApiKeyInvalidation(ctx, redis, `${config.redisKeyPrefix}api-keys`) : undefined;
  await app.register(rateLimit, {
    global: false,
    enableDraftSpec: true,
    // If Redis fails mid-flight, keep serving (fail open) rather than refuse every request;
    // guessable secrets have their own database-backed attempt limits.
    skipOnError: true,
    ...(redis ? { redis, nameSpace: `${config.redisKeyPrefix}rl:` } : {}),
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Too many requests. Try again in ${Math.ceil(context.ttl / 1000)} s.`, {
        'retry-after': String(Math.ceil(context.ttl / 1000)),
      }),
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sixdigit verification API',
        version: '1.0.0',
        description:
          'Prepaid TOTP (RFC 6238) enrolment and verification. ₹0.10 per verification that reaches the code check. Every error is one envelope with a doc_url; a wrong method on a known path answers 405 method_not_allowed with an Allow header.',
        license: { name: 'Proprietary', url: `${config.publicUrl}/docs` },
      },
      servers: [{ url: `${config.publicUrl}/api/v1` }],
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'sk_live_… key from your dashboard' } } },
    },
    hideUntagged: true,
    transform: (input) => {
      // Paths are documented relative to the /api/v1 server URL.
      const transformed = jsonSchemaTransform(input);
      return { ...transformed, url: transformed.url.replace(/^\/api\/v1/, '') };
    },
    // The zod schemas give the shapes; the rest (ids, every status, headers, webhooks) is added once.
    transformObject: (input) => completePublicApiDocument(jsonSchemaTransformObject(input) as Record<string, unknown>) as ReturnType<typeof jsonSchemaTransformObject>,
  });

  // Two sibling scopes. The public API (/api/v1, /v1) is authenticated by API key only: its
  // requests never run the cookie stack's hooks (cookie parsing, CSRF, the impersonation guard
  // and audit, helmet's page policy), which only cost time there (issue 23). Everything else —
  // the dashboard's cookie API, the pages, the static files and the 404 handler — is the
  // cookie/page scope.
  const apiKeyRateLimit = createApiKeyRateLimit(app);
  await app.register(async (api) => {
    // One per-key budget for every v1 route on both mounts.
    await api.register(verifyRoutesV1, { prefix: '/api/v1', rateLimit: apiKeyRateLimit });
    // /v1 is an alias (the enterprise docs use it), left out of the OpenAPI document.
    await api.register(
      async (alias) => {
        alias.addHook('onRoute', (route) => {
          route.schema = { ...(route.schema ?? {}), hide: true };
        });
        await alias.register(verifyRoutesV1, { rateLimit: apiKeyRateLimit });
      },
      { prefix: '/v1' },
    );
  });

  await app.register(async (pages) => {
    // Every write made while an administrator acts as someone else is audited.
    pages.addHook('onResponse', auditImpersonatedWrite);
    // Cookie-authenticated writes must come from our own pages (features/auth/csrf.ts).
    installCsrfGuard(pages);
    // An administrator acting as someone never receives their key, secret or backup code (routes
    // flagged `carriesSecret`; features/admin/impersonation-guard.ts).
    pages.addHook('onRequest', refuseSecretsWhileImpersonating);

    await pages.register(helmet, {
      hsts: config.isProduction,
      // no-referrer would make browsers send `Origin: null` on our own form posts.
      referrerPolicy: { policy: 'same-origin' },
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          baseUri: ["'self'"],
          // wasm-unsafe-eval lets the page compile WebAssembly (the vault's Argon2id, the QR reader);
          // it allows no JavaScript eval and no script from anywhere else.
          scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          workerSrc: ["'self'", 'blob:'],
          manifestSrc: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          ...(config.isProduction ? { upgradeInsecureRequests: [] } : {}),
        },
      },
    });
    await pages.register(cookie);

    await pages.register(healthRoutes);
    await pages.register(authRoutes);
    await pages.register(passkeyRoutes);
    await pages.register(businessRoutes);
    await pages.register(receiptRoutes);
    await pages.register(webhookRoutes);
    await pages.register(paymentRoutes);
    await pages.register(autoRefillRoutes);
    await pages.register(razorpayWebhookRoutes);
    await pages.register(financialRoutes);
    await pages.register(userTotpRoutes);
    await pages.register(secondFactorRoutes);
    await pages.register(sessionRoutes);
    await pages.register(mailRoutes);
    await pages.register(adminMfaRoutes);
    await pages.register(adminImpersonationRoutes);
    await pages.register(adminRoutes);
    await pages.register(adminBusinessRoutes);
    await pages.register(lunaRoutes);
    await pages.register(contactRoutes);
    await pages.register(paymentMethodsRoutes);
    await pages.register(siteRoutes);
    await pages.register(siteFiguresRoutes);
    // The document is JSON for tools, served with the pages' headers as before.
    pages.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());

    await registerWebApp(pages);
  });

  app.addHook('onClose', async () => {
    stopSharingKeys?.();
    redis?.disconnect();
    await ctx.database.close();
  });
  return app;
}

const PUBLIC_API_PATH = /^\/(?:api\/)?v1\//;

/** Build files the server never hands out: source maps (if a build made them) and the .br/.gz twins, which are only sent in place of their original. */
const PRIVATE_BUILD_FILE = /\.(?:map|br|gz)$/i;
/** Paths that name a file: when there is no such file the answer is 404, not the page. */
const FILE_LIKE_PATH = /\.(?:map|js|mjs|css|png|jpe?g|gif|webp|ico|svg|woff2?|json|webmanifest|br|gz)$/i;

/**
 * Serves the built single-page app: hashed assets cached for a year, index.html never cached;
 * text files brotli/gzip-compressed at build time, the page compressed once per variant.
 */
async function registerWebApp(app: FastifyInstance): Promise<void> {
  const { config } = app.ctx;
  const root = resolve(config.webDistDir);
  const indexFile = resolve(root, 'index.html');
  const indexHtml = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined;
  const compressedPages = new CompressedBodyCache();
  const pageRenderer = indexHtml ? await loadPageRenderer(config.webSsrEntry, app.log) : undefined;

  if (indexHtml) {
    await app.register(fastifyStatic, {
      root,
      index: false,
      wildcard: true,
      // Sends x.js.br / x.js.gz (written by the build) when the browser accepts them.
      preCompressed: true,
      allowedPath: (pathname) => !PRIVATE_BUILD_FILE.test(pathname),
      // Our setHeaders decides caching; the plugin's own max-age=0 would overwrite it.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${resolve(root, 'assets')}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        if (COMPRESSIBLE_FILE.test(filePath.replace(/\.(?:br|gz)$/, ''))) res.setHeader('vary', 'accept-encoding');
      },
    });
  }

  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!indexHtml) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet. Run `npm run build` (npm start does it for you).');
    }
    // The variant marker plus each public page's own title, description and preview tags,
    // compressed once per distinct page (the cache is keyed by content).
    const html = await pageHtml(indexHtml, request, config, pageRenderer, app.siteFigures);
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8');
    return sendCompressed(request, reply, html, compressedPages);
  };

  // The static plugin would answer "/" itself (a folder, index off); the page router owns it.
  app.get('/', sendPage);

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const wantsPage =
      request.method === 'GET' && !path.startsWith('/api/') && !path.startsWith('/v1/') && !path.startsWith('/assets/') && !FILE_LIKE_PATH.test(path);
    if (!wantsPage) {
      // The public API names the methods a known path does take (RFC 9110 §15.5.6), from the route table.
      const allow = PUBLIC_API_PATH.test(path) ? allowedMethods(app.routeTable, path) : [];
      if (allow.length > 0) {
        return reply
          .status(405)
          .header('allow', allow.join(', '))
          .send(envelope('method_not_allowed', `${path} does not take ${request.method}; it takes ${allow.join(', ')}.`, request.id, { docsBase: config.publicUrl }));
      }
      return reply.status(404).send(envelope('not_found', `No route for ${request.method} ${path}.`, request.id, { docsBase: config.publicUrl }));
    }
    return sendPage(request, reply);
  });
}
