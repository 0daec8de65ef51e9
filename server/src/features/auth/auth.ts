import { createAuthEndpoint } from '@better-auth/core/api';
import { betterAuth, type BetterAuthOptions, type BetterAuthPlugin } from 'better-auth';
import { APIError } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { getMigrations } from 'better-auth/db/migration';
import { admin } from 'better-auth/plugins/admin';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Database, Dialect } from '../../db/types';
import { CLIENT_IP_HEADER } from '../../lib/http';
import { noteSignIn } from '../sessions/new-device';

export const OIDC_PROVIDER_ID = 'oidc';
export const ROLES = ['user', 'financial_manager', 'admin'] as const;
export type Role = (typeof ROLES)[number];

const localSignInBody = z.object({
  email: z.email().max(320),
  name: z.string().trim().min(1).max(120),
});

/**
 * Development-only sign-in: type an e-mail and a name, get a real session. Registered only when
 * no OpenID Connect issuer is configured and NODE_ENV is not production (config enforces that).
 */
function localSignIn(): BetterAuthPlugin {
  return {
    id: 'local-sign-in',
    endpoints: {
      signInLocal: createAuthEndpoint('/sign-in/local', { method: 'POST', body: localSignInBody }, async (ctx) => {
        const email = ctx.body.email.toLowerCase();
        const [firstName = '', ...rest] = ctx.body.name.split(/\s+/);
        const existing = await ctx.context.internalAdapter.findUserByEmail(email, { includeAccounts: false });
        const user =
          existing?.user ??
          (await ctx.context.internalAdapter.createUser({
            email,
            name: ctx.body.name,
            firstName,
            lastName: rest.join(' ') || null,
            emailVerified: false,
          }, { method: 'local-development' }));
        if (!user) throw new APIError('INTERNAL_SERVER_ERROR', { message: 'could not create the user' });
        const session = await ctx.context.internalAdapter.createSession(user.id);
        if (!session) throw new APIError('INTERNAL_SERVER_ERROR', { message: 'could not create a session' });
        await setSessionCookie(ctx, { session, user });
        return ctx.json({ user: { id: user.id, email: user.email } });
      }),
    },
  };
}

async function hasConfirmedTotp(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db.selectFrom('account_totp').select('user_id').where('user_id', '=', userId).where('confirmed_at', 'is not', null).executeTakeFirst();
  return Boolean(row);
}

const passkeySessionBody = z.object({ userId: z.string().min(1).max(64) });

/**
 * Starts a session for a person whose passkey our own route has just verified (features/passkeys):
 * the same session row and cookies as any other sign-in. Server-only: never on the HTTP router, so
 * it is reachable only after that verification.
 */
function passkeySession(): BetterAuthPlugin {
  return {
    id: 'passkey-session',
    endpoints: {
      startPasskeySession: createAuthEndpoint.serverOnly({ method: 'POST', body: passkeySessionBody }, async (ctx) => {
        const user = await ctx.context.internalAdapter.findUserById(ctx.body.userId);
        if (!user) throw new APIError('NOT_FOUND', { message: 'no such user' });
        // The admin plugin's session hook refuses banned users here, as for any sign-in.
        const session = await ctx.context.internalAdapter.createSession(user.id);
        if (!session) throw new APIError('INTERNAL_SERVER_ERROR', { message: 'could not create a session' });
        await setSessionCookie(ctx, { session, user });
        return ctx.json({ sessionId: session.id });
      }),
    },
  };
}

function splitName(name: unknown): { firstName: string | null; lastName: string | null } {
  const parts = typeof name === 'string' ? name.trim().split(/\s+/).filter(Boolean) : [];
  return { firstName: parts[0] ?? null, lastName: parts.slice(1).join(' ') || null };
}

export function buildAuthOptions(config: Config, db: Kysely<Database>, dialect: Dialect, secret: string) {
  const plugins: BetterAuthPlugin[] = [
    // Only ever called server-side from our own routes (its HTTP endpoints are not routed): our
    // impersonation uses its session swap, time-boxed to 30 minutes.
    admin({ defaultRole: 'user', adminRoles: ['admin'], impersonationSessionDuration: 30 * 60 }),
    passkeySession(),
  ];
  if (config.oidc) {
    const oidc = config.oidc;
    plugins.push(
      genericOAuth({
        config: [
          {
            providerId: OIDC_PROVIDER_ID,
            name: oidc.providerName,
            discoveryUrl: `${oidc.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
            clientId: oidc.clientId,
            clientSecret: oidc.clientSecret,
            scopes: ['openid', 'email', 'profile'],
            pkce: true,
            mapProfileToUser: (profile) => {
              const fallback = splitName(profile.name);
              return {
                name: typeof profile.name === 'string' ? profile.name : String(profile.email ?? ''),
                firstName: typeof profile.given_name === 'string' ? profile.given_name : fallback.firstName,
                lastName: typeof profile.family_name === 'string' ? profile.family_name : fallback.lastName,
                image: typeof profile.picture === 'string' ? profile.picture : undefined,
              };
            },
          },
        ],
      }),
    );
  } else {
    plugins.push(localSignIn());
  }

  return {
    appName: 'Sixdigit',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    database: { db, type: dialect },
    trustedOrigins: [config.publicUrl],
    user: {
      // Not `input: false`: better-auth 1.7 drops input:false fields from what mapProfileToUser
      // returns (parseAdditionalUserInputFromProviderProfile), so given_name/family_name were lost.
      additionalFields: {
        firstName: { type: 'string', required: false },
        lastName: { type: 'string', required: false },
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
      // Issue 19: set when the session is made (databaseHooks below), cleared only by
      // completeSecondFactor (auth/second-factor.ts); guards.ts refuses such a session everywhere
      // but the second step. better-auth's own migration adds the column.
      additionalFields: {
        secondFactorPending: { type: 'boolean', required: false, defaultValue: false, input: false },
      },
    },
    account: { accountLinking: { enabled: true, trustedProviders: [OIDC_PROVIDER_ID] } },
    advanced: {
      // Sessions record the address our own server saw (lib/http.ts toAuthHeaders), for "Signed-in devices".
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: config.isProduction,
      cookiePrefix: 'sixdigit',
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: config.isProduction },
    },
    // Failed callbacks (state mismatch, denied consent) come back to the landing page, not to a
    // library error page (which is not routed: see AUTH_LIBRARY_ROUTES).
    onAPIError: { errorURL: '/' },
    // Our own limiter (@fastify/rate-limit) guards the sign-in routes; one limiter, one store.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    databaseHooks: {
      // better-auth keeps the provider's access, refresh and ID tokens (in plain text; its
      // encryptOAuthTokens leaves the ID token readable). We only sign in with them and never call
      // the provider afterwards, so none is stored: a copy of the database hands out no token.
      account: {
        create: { before: async (account: Record<string, unknown>) => ({ data: withoutProviderTokens(account) }) },
        update: { before: async (data: Record<string, unknown>) => ({ data: withoutProviderTokens(data) }) },
      },
      session: {
        create: {
          // Every way a session is made (OIDC callback, local sign-in, anything added later)
          // passes here: a person whose account TOTP is confirmed starts half signed in. An
          // impersonation session is the administrator's and never needs the user's factor.
          before: async (session: Record<string, unknown>) => {
            const pending = !session.impersonatedBy && (await hasConfirmedTotp(db, String(session.userId)));
            return { data: { ...session, secondFactorPending: pending } };
          },
          // A kind of device this person never signed in from: a security notice by e-mail.
          after: async (session: Record<string, unknown>) => {
            await noteSignIn(db, {
              userId: String(session.userId),
              userAgent: (session.userAgent as string | null | undefined) ?? null,
              ipAddress: (session.ipAddress as string | null | undefined) ?? null,
              impersonatedBy: (session.impersonatedBy as string | null | undefined) ?? null,
            });
          },
        },
      },
      user: {
        create: {
          before: async (user: Record<string, unknown>) => {
            const email = String(user.email ?? '').toLowerCase();
            return { data: { ...user, email, role: email === config.adminEmail ? 'admin' : 'user' } };
          },
        },
        update: {
          // Only the roles the product knows are ever stored, whoever writes (our own role
          // changes validate first; this also stops any library path from storing "superuser").
          before: async (data: Record<string, unknown>) => {
            if ('role' in data && !(typeof data.role === 'string' && (ROLES as readonly string[]).includes(data.role))) return false;
            return { data };
          },
        },
      },
    },
    plugins,
  } satisfies BetterAuthOptions;
}

const PROVIDER_TOKENS = ['accessToken', 'refreshToken', 'idToken'] as const;

/** The same account data with every provider token it carries set to null. */
function withoutProviderTokens(data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const token of PROVIDER_TOKENS) if (token in out) out[token] = null;
  return out;
}

export type AuthOptions = ReturnType<typeof buildAuthOptions>;

export function createAuth(options: AuthOptions) {
  return betterAuth(options);
}

export type Auth = ReturnType<typeof createAuth>;

/** The endpoint our local sign-in plugin adds (plugins are typed loosely, so it is named here). */
export interface LocalSignInApi {
  signInLocal(input: { body: { email: string; name: string }; headers?: Headers; returnHeaders: true }): Promise<{ headers: Headers }>;
}

/** The passkey session endpoint (server-only), called by features/passkeys after a verified assertion. */
export interface PasskeySessionApi {
  startPasskeySession(input: { body: { userId: string }; headers: Headers; returnHeaders: true }): Promise<{ headers: Headers; response: { sessionId: string } }>;
}

/** The admin plugin's impersonation endpoints, called server-side by features/admin. */
export interface ImpersonationApi {
  impersonateUser(input: { body: { userId: string }; headers: Headers; returnHeaders: true }): Promise<{ headers: Headers; response: { session: { id: string; expiresAt: Date | string } } }>;
  stopImpersonating(input: { headers: Headers; returnHeaders: true }): Promise<{ headers: Headers }>;
}

/** Creates or updates better-auth's own tables (its CLI does not run on Node 20). */
export async function migrateAuthTables(options: AuthOptions): Promise<void> {
  const { runMigrations } = await getMigrations(options);
  await runMigrations();
}
