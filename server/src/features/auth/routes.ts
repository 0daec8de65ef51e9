import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AuthUser } from '@common/contract/auth';
import { z } from 'zod';
import { AppError, envelope } from '../../lib/errors';
import { forwardSetCookies, sessionHintCookie, toAuthHeaders, toWebHeaders } from '../../lib/http';
import { SESSION_HINT_COOKIE } from '@common/contract/auth';
import { OIDC_PROVIDER_ID, type LocalSignInApi } from './auth';
import { currentImpersonation, endForSignOut } from '../admin/impersonation-service';
import { loadCurrentUser } from './guards';
import { isCrossSiteNavigation } from './csrf';
import { renderLocalSignInPage, renderSignInChooserPage, renderSignOutConfirmPage } from './local-sign-in-page';
import { safeReturnPath } from './service';

const SIGN_IN_RATE_LIMIT = { max: 30, timeWindow: '1 minute' };

/** Where to come back to: an explicit ?returnTo, else the same-origin page that sent the user here. */
function returnPathFor(request: FastifyRequest, explicit: string | undefined): string {
  if (explicit) return safeReturnPath(explicit);
  const referer = request.headers.referer;
  if (!referer) return '/';
  try {
    const url = new URL(referer);
    if (url.host !== request.host) return '/';
    return safeReturnPath(`${url.pathname}${url.search}${url.hash}`);
  } catch {
    return '/';
  }
}

/**
 * The only better-auth endpoints reachable over HTTP: the identity provider's return to us.
 * Everything else the library offers (its admin, session and account endpoints) answers 404;
 * what the product needs from it is called server-side from our own routes, behind our guards.
 */
export const AUTH_LIBRARY_ROUTES = [{ method: 'GET', url: '/api/auth/callback/:providerId' }] as const;

/** Hands one allow-listed request to better-auth; its JSON errors leave in our envelope. */
async function forwardToAuth(request: FastifyRequest, reply: FastifyReply) {
  const { auth } = request.server.ctx;
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  const response = await auth.handler(new Request(url, { method: request.method, headers: toAuthHeaders(request) }));
  if (response.status >= 400) {
    const body = (await response.json().catch(() => ({}))) as { code?: unknown; message?: unknown };
    const code = typeof body.code === 'string' && /^[A-Z_]{1,64}$/.test(body.code) ? body.code.toLowerCase() : 'bad_request';
    const message = typeof body.message === 'string' && body.message.length < 300 ? body.message : 'Sign-in could not be completed.';
    return reply.status(response.status).send(envelope(code, message, request.id));
  }
  reply.status(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== 'content-length') reply.header(name, value);
  });
  forwardSetCookies(response.headers, reply);
  return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
}

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config, auth } = app.ctx;
  const localSignInEnabled = !config.oidc;

  r.get(
    '/api/login',
    {
      config: { rateLimit: SIGN_IN_RATE_LIMIT },
      schema: { querystring: z.object({ returnTo: z.string().max(2048).optional() }) },
    },
    async (request, reply) => {
      const returnTo = returnPathFor(request, request.query.returnTo);
      const page = localSignInEnabled ? renderLocalSignInPage({ returnTo }) : renderSignInChooserPage({ returnTo, providerName: config.oidc!.providerName });
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
    },
  );

  if (!localSignInEnabled) {
    // The identity provider's leg, one click away on /api/login beside "Sign in with a passkey".
    r.get(
      '/api/login/oidc',
      {
        config: { rateLimit: SIGN_IN_RATE_LIMIT },
        schema: { querystring: z.object({ returnTo: z.string().max(2048).optional() }) },
      },
      async (request, reply) => {
        const returnTo = safeReturnPath(request.query.returnTo);
        const { headers, response } = await auth.api.signInSocial({
          body: { provider: OIDC_PROVIDER_ID, callbackURL: returnTo, errorCallbackURL: '/', disableRedirect: true },
          headers: toWebHeaders(request.headers),
          returnHeaders: true,
        });
        if (!response.url) throw new AppError('service_unavailable', 'The sign-in provider did not answer.');
        forwardSetCookies(headers, reply);
        return reply.header('cache-control', 'no-store').redirect(response.url, 302);
      },
    );
  }

  if (localSignInEnabled) {
    r.post(
      '/api/login/local',
      {
        config: { rateLimit: SIGN_IN_RATE_LIMIT },
        schema: {
          body: z.object({
            email: z.string().max(320),
            name: z.string().max(120),
            returnTo: z.string().max(2048).optional(),
          }),
        },
      },
      async (request, reply) => {
        const { email, name } = request.body;
        const returnTo = safeReturnPath(request.body.returnTo);
        const valid = z.object({ email: z.email(), name: z.string().trim().min(1) }).safeParse({ email: email.trim(), name });
        if (!valid.success) {
          return reply
            .status(400)
            .type('text/html; charset=utf-8')
            .send(renderLocalSignInPage({ returnTo, email, name, error: 'Enter a valid e-mail address and your name.' }));
        }
        const { headers } = await (auth.api as unknown as LocalSignInApi).signInLocal({
          body: { email: valid.data.email, name: valid.data.name },
          // The session records the browser and address ("Signed-in devices").
          headers: toAuthHeaders(request),
          returnHeaders: true,
        });
        forwardSetCookies(headers, reply);
        return reply.redirect(returnTo, 303);
      },
    );
  }

  r.get('/api/logout', async (request, reply) => {
    // A link from another site must not sign anyone out: ask on our own page instead.
    if (isCrossSiteNavigation(request, config.publicUrl)) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(renderSignOutConfirmPage());
    }
    let headers = toWebHeaders(request.headers);
    if (await loadCurrentUser(request)) {
      // Signing out while impersonating ends the impersonation as /stop does (closed, audited,
      // the user's notice shown now), then signs the administrator's own session out too.
      if (request.impersonatedBy) headers = await endForSignOut(app.ctx, request, reply);
      const result = await auth.api.signOut({ headers, returnHeaders: true });
      forwardSetCookies(result.headers, reply);
    }
    return reply.header('cache-control', 'no-store').redirect('/', 302);
  });

  r.get('/api/auth/user', { schema: { response: { 200: AuthUser } } }, async (request, reply) => {
    const user = await loadCurrentUser(request);
    const hinted = request.cookies?.[SESSION_HINT_COOKIE] === '1';
    if (!user) {
      // A session that ended on its own (expiry, removed on the server) leaves a stale hint.
      if (hinted) reply.header('set-cookie', sessionHintCookie(false, config.isProduction));
      throw new AppError('unauthorized', 'You are not signed in.');
    }
    // Refreshed on every answer: the session outlives its first week when used (updateAge).
    reply.header('set-cookie', sessionHintCookie(true, config.isProduction));
    const impersonation = await currentImpersonation(app.ctx, request);
    return reply.header('cache-control', 'no-store').send({ ...user, impersonation });
  });

  for (const route of AUTH_LIBRARY_ROUTES) {
    app.route({ method: route.method, url: route.url, config: { rateLimit: SIGN_IN_RATE_LIMIT }, handler: forwardToAuth });
  }
}
