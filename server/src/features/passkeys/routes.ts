import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { EmptyBody, MfaVerified } from '@common/contract/admin';
import {
  AddPasskeyBody,
  AuthenticationOptions,
  Passkey,
  PasskeyAdded,
  PasskeyAssertionBody,
  PasskeyList,
  PasskeyParams,
  PasskeyRemoved,
  PasskeySignedIn,
  RegistrationOptions,
  RenamePasskeyBody,
} from '@common/contract/passkeys';
import { AppError } from '../../lib/errors';
import { forwardSetCookies, toWebHeaders } from '../../lib/http';
import { requireAdminIdentity } from '../admin/guard';
import * as mfa from '../admin/mfa-service';
import type { PasskeySessionApi } from '../auth/auth';
import { refuseWhileImpersonating, requireUser } from '../auth/guards';
import { completeSecondFactor } from '../auth/second-factor';
import { perUser } from '../authenticator/guard';
import * as service from './service';

/** As /api/login: a sign-in attempt is cheap to make, so each address gets a bounded number. */
const SIGN_IN_RATE_LIMIT = { max: 30, timeWindow: '1 minute' };
const IMPERSONATING = 'Passkeys are not available while impersonating a user.';

/**
 * The routes a half-signed-in session must reach to finish its second step with a passkey
 * (the second-factor gate lets these through, beside its own second-step route and sign-out).
 */
export const PASSKEY_SECOND_STEP_ROUTES = ['POST /api/auth/passkey/options', 'POST /api/auth/passkey/verify'] as const;

function ceremonyCookie(value: string | null, secure: boolean): string {
  const lifetime = value ? `Max-Age=${service.CHALLENGE_TTL_MS / 1000}` : 'Max-Age=0';
  return `${service.CEREMONY_COOKIE}=${value ?? ''}; ${lifetime}; Path=/api/auth/passkey; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/**
 * The sign-in session the request carries, whatever its second-factor state (these routes ARE the
 * second step, so they read the library's session directly rather than through requireUser).
 */
async function rawSession(request: FastifyRequest): Promise<{ id: string; userId: string; impersonatedBy: string | null } | null> {
  const found = await request.server.ctx.auth.api.getSession({ headers: toWebHeaders(request.headers) });
  if (!found) return null;
  const session = found.session as { id: string; userId: string; impersonatedBy?: string | null };
  return { id: session.id, userId: session.userId, impersonatedBy: session.impersonatedBy ?? null };
}

/** The signed-in person's passkeys (the security page). Never while an administrator acts as them. */
async function userPasskeyRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  app.addHook('onRequest', requireUser);
  app.addHook('onRequest', refuseWhileImpersonating(IMPERSONATING));
  const writes = { rateLimit: perUser(30, '15 minutes') };

  r.get('/api/user/passkeys', { schema: { response: { 200: PasskeyList } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send({ passkeys: await service.list(ctx, request.currentUser!) }),
  );

  r.post('/api/user/passkeys/registration-options', { config: writes, schema: { body: EmptyBody, response: { 200: RegistrationOptions } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.registrationOptions(ctx, request.currentUser!, request.sessionId!)),
  );

  r.post('/api/user/passkeys', { config: writes, schema: { body: AddPasskeyBody, response: { 201: PasskeyAdded } } }, async (request, reply) => {
    const added = await service.add(ctx, request.currentUser!, request.sessionId!, request.body.name, request.body.response as unknown as RegistrationResponseJSON);
    return reply.status(201).header('cache-control', 'no-store').send(added);
  });

  r.patch('/api/user/passkeys/:id', { config: writes, schema: { params: PasskeyParams, body: RenamePasskeyBody, response: { 200: Passkey } } }, async (request) =>
    service.rename(ctx, request.currentUser!, request.params.id, request.body.name),
  );

  r.delete('/api/user/passkeys/:id', { config: writes, schema: { params: PasskeyParams, response: { 200: PasskeyRemoved } } }, async (request) =>
    service.remove(ctx, request.currentUser!, request.sessionId!, request.params.id),
  );
}

/** Signing in with a passkey (signed out), or the second step of a half-signed-in session. */
async function passkeySignInRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const secure = ctx.config.isProduction;
  const sessions = new WeakMap<FastifyRequest, Awaited<ReturnType<typeof rawSession>>>();
  // Before the body is read: an impersonating administrator learns nothing from validation.
  app.addHook('onRequest', async (request) => {
    const session = await rawSession(request);
    if (session?.impersonatedBy) throw new AppError('impersonation_forbidden', IMPERSONATING);
    sessions.set(request, session);
  });

  r.post(
    '/api/auth/passkey/options',
    { config: { rateLimit: SIGN_IN_RATE_LIMIT }, schema: { body: EmptyBody, response: { 200: AuthenticationOptions } } },
    async (request, reply) => {
      const session = sessions.get(request) ?? null;
      reply.header('cache-control', 'no-store');
      if (session) return reply.send(await service.signInOptions(ctx, { sessionId: session.id, userId: session.userId }));
      const ceremonyId = service.newCeremonyId();
      reply.header('set-cookie', ceremonyCookie(ceremonyId, secure));
      return reply.send(await service.signInOptions(ctx, { ceremonyId }));
    },
  );

  r.post(
    '/api/auth/passkey/verify',
    { config: { rateLimit: SIGN_IN_RATE_LIMIT }, schema: { body: PasskeyAssertionBody, response: { 200: PasskeySignedIn } } },
    async (request, reply) => {
      const response = request.body.response as unknown as AuthenticationResponseJSON;
      const session = sessions.get(request) ?? null;
      reply.header('cache-control', 'no-store');
      if (session) {
        // The second step: this session's own ceremony, and a passkey of this session's person.
        await service.checkAssertion(ctx, response, 'sign_in', { sessionId: session.id }, session.userId);
        await completeSecondFactor(ctx, session.id, 'passkey');
        return reply.send({ signedIn: true, secondStep: true });
      }
      const ceremonyId = request.cookies?.[service.CEREMONY_COOKIE];
      if (!ceremonyId) throw new AppError('passkey_rejected', 'This sign-in was started in another browser or has expired. Try again.');
      reply.header('set-cookie', ceremonyCookie(null, secure));
      const passkey = await service.checkAssertion(ctx, response, 'sign_in', { ceremonyId }, null);
      await startSession(request, reply, passkey.userId);
      return reply.send({ signedIn: true, secondStep: false });
    },
  );
}

/** A full session for the passkey's person: user verification made the passkey both factors. */
async function startSession(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
  const ctx = request.server.ctx;
  let result;
  try {
    result = await (ctx.auth.api as unknown as PasskeySessionApi).startPasskeySession({ body: { userId }, headers: toWebHeaders(request.headers), returnHeaders: true });
  } catch (err) {
    const code = (err as { body?: { code?: string } }).body?.code;
    if (code === 'BANNED_USER' || /banned/i.test((err as Error).message)) throw new AppError('forbidden', 'This account has been suspended.');
    throw err;
  }
  forwardSetCookies(result.headers, reply);
  await completeSecondFactor(ctx, result.response.sessionId, 'passkey');
}

/**
 * The administrator's MFA by passkey, instead of the authenticator code: the admin's own
 * passkeys only, user verification required, failures counted with the codes' (mfa-service).
 */
async function adminMfaPasskeyRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const limit = { rateLimit: { max: 30, timeWindow: '1 minute' } };
  app.addHook('onRequest', async (request) => {
    await requireAdminIdentity(request);
  });

  r.post('/api/admin/mfa/passkey/options', { config: limit, schema: { body: EmptyBody, response: { 200: AuthenticationOptions } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.adminMfaOptions(ctx, request.currentUser!, request.sessionId!)),
  );

  r.post('/api/admin/mfa/passkey/verify', { config: limit, schema: { body: PasskeyAssertionBody, response: { 200: MfaVerified } } }, async (request, reply) => {
    const user = request.currentUser!;
    const sessionId = request.sessionId!;
    const response = request.body.response as unknown as AuthenticationResponseJSON;
    const verified = await mfa.verifyWithPasskey(ctx, user, sessionId, (trx) =>
      service.checkAssertion(ctx, response, 'admin_mfa', { userId: user.id, sessionId }, user.id, new Date(), trx),
    );
    return reply.header('cache-control', 'no-store').send(verified);
  });
}

export async function passkeyRoutes(app: FastifyInstance): Promise<void> {
  await app.register(userPasskeyRoutes);
  await app.register(passkeySignInRoutes);
  await app.register(adminMfaPasskeyRoutes);
}
