import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Interaction } from 'oidc-provider';
import type { HttpClient } from './http-client';

/**
 * A real OpenID Connect provider (the certified `oidc-provider` package) on 127.0.0.1 and a
 * random port, for end-to-end tests of our sign-in. One confidential client, authorization code
 * flow only, PKCE (S256) required. The endpoints live on non-default paths (/oauth2/…), so a
 * relying party only finds them through the discovery document.
 *
 * Login and consent are completed without a browser through a tiny interaction API mounted on
 * the provider (oidc-provider's documented interaction hooks, not its dev-only HTML forms):
 *   GET  /interaction/:uid          → JSON { uid, prompt, reasons, clientId, scope, action }
 *   POST /interaction/:uid/login    → form `accountId=<sub>`: signs that user in at the provider
 *   POST /interaction/:uid/confirm  → grants the requested OIDC scopes and claims
 *   POST /interaction/:uid/abort    → access_denied back to the client
 * Each POST answers 303 to the authorization resume URL, exactly as a browser form post would.
 */

export interface OidcTestUser {
  sub: string;
  email: string;
  emailVerified?: boolean;
  givenName?: string;
  familyName?: string;
  /** defaults to "givenName familyName" */
  name?: string;
  picture?: string;
}

export interface StartOidcProviderOptions {
  /** the relying party's callback, e.g. `${PUBLIC_URL}/api/auth/callback/oidc` */
  redirectUri: string | string[];
  users: OidcTestUser[];
  clientId?: string;
  clientSecret?: string;
  /** better-auth sends client_secret_post unless told otherwise (so does Google accept it) */
  tokenEndpointAuthMethod?: 'client_secret_post' | 'client_secret_basic';
}

export interface ProviderRequest {
  method: string;
  path: string;
  /** how the client authenticated at the token endpoint, when it did */
  clientAuth?: 'client_secret_basic' | 'client_secret_post' | 'none';
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** every request the provider received, in order (path without query) */
  requests: ProviderRequest[];
  close(): Promise<void>;
}

function claimsOf(user: OidcTestUser): Record<string, unknown> {
  const name = user.name ?? ([user.givenName, user.familyName].filter(Boolean).join(' ') || undefined);
  return {
    sub: user.sub,
    email: user.email,
    email_verified: user.emailVerified ?? true,
    given_name: user.givenName,
    family_name: user.familyName,
    name,
    picture: user.picture,
  };
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startOidcProvider(options: StartOidcProviderOptions): Promise<TestOidcProvider> {
  const clientId = options.clientId ?? `sixdigit-test-${randomBytes(4).toString('hex')}`;
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const users = new Map(options.users.map((u) => [u.sub, u]));
  const requests: ProviderRequest[] = [];

  // The issuer URL (with its port) must be known before the Provider is built.
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'test-rs256', alg: 'RS256', use: 'sig' };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: Array.isArray(options.redirectUri) ? options.redirectUri : [options.redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: options.tokenEndpointAuthMethod ?? 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    findAccount: (_ctx, id) => {
      const user = users.get(id);
      if (!user) return undefined;
      return { accountId: user.sub, claims: () => claimsOf(user) };
    },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'picture'],
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    routes: {
      authorization: '/oauth2/authorize',
      token: '/oauth2/token',
      userinfo: '/oauth2/userinfo',
      jwks: '/oauth2/jwks',
      end_session: '/oauth2/logout',
    },
    // Explicit lifetimes (seconds), which also keeps oidc-provider from printing a notice per artifact.
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    jwks: { keys: [signingKey] },
    renderError: (ctx, out) => {
      ctx.type = 'json';
      ctx.body = out;
    },
  });
  const providerCallback = provider.callback();

  const interactionAction = (interaction: Interaction) =>
    `/interaction/${interaction.uid}/${interaction.prompt.name === 'login' ? 'login' : 'confirm'}`;

  async function interactions(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const [, , uid, step] = path.split('/');
    const interaction = await provider.interactionDetails(req, res);
    if (interaction.uid !== uid) return sendJson(res, 400, { error: 'interaction_mismatch' });

    if (req.method === 'GET' && step === undefined) {
      return sendJson(res, 200, {
        uid: interaction.uid,
        prompt: interaction.prompt.name,
        reasons: interaction.prompt.reasons,
        clientId: interaction.params.client_id,
        scope: interaction.params.scope,
        action: interactionAction(interaction),
      });
    }
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'method_not_allowed' });

    if (step === 'login') {
      if (interaction.prompt.name !== 'login') return sendJson(res, 400, { error: 'not_a_login_prompt' });
      const accountId = (await readForm(req)).get('accountId') ?? '';
      if (!users.has(accountId)) return sendJson(res, 400, { error: 'unknown_account', accountId });
      return provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
    }

    if (step === 'confirm') {
      if (interaction.prompt.name !== 'consent') return sendJson(res, 400, { error: 'not_a_consent_prompt' });
      const accountId = interaction.session?.accountId;
      const clientIdParam = interaction.params.client_id;
      if (!accountId || !clientIdParam) return sendJson(res, 400, { error: 'no_session' });
      const grant = interaction.grantId
        ? await provider.Grant.find(interaction.grantId)
        : new provider.Grant({ accountId, clientId: clientIdParam });
      if (!grant) return sendJson(res, 400, { error: 'grant_not_found' });
      const { details } = interaction.prompt;
      if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
      if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
        grant.addResourceScope(indicator, scopes.join(' '));
      }
      const grantId = await grant.save();
      return provider.interactionFinished(
        req,
        res,
        { consent: interaction.grantId ? {} : { grantId } },
        { mergeWithLastSubmission: true },
      );
    }

    if (step === 'abort') {
      return provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The user cancelled the sign-in.' },
        { mergeWithLastSubmission: false },
      );
    }
    return sendJson(res, 404, { error: 'not_found' });
  }

  handler = (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const entry: ProviderRequest = { method: req.method ?? 'GET', path: url.pathname };
    if (url.pathname === '/oauth2/token') {
      entry.clientAuth = req.headers.authorization?.startsWith('Basic ') ? 'client_secret_basic' : 'client_secret_post';
    }
    requests.push(entry);
    if (url.pathname.startsWith('/interaction/')) {
      interactions(req, res, url.pathname).catch((error: Error) => {
        if (!res.headersSent) sendJson(res, 400, { error: error.name, message: error.message });
        else res.end();
      });
      return;
    }
    providerCallback(req, res);
  };

  return {
    issuer,
    clientId,
    clientSecret,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * Plays the browser at the provider: starting from the authorization URL the app redirected to,
 * follows the provider's redirects, signs in as `accountId`, consents, and stops at the first
 * redirect that leaves the provider (the app's callback). Returns that URL.
 */
export async function signInAtProvider(client: HttpClient, authorizationUrl: string, accountId: string): Promise<URL> {
  let url = new URL(authorizationUrl);
  const issuerOrigin = url.origin;
  for (let hop = 0; hop < 12; hop++) {
    let response: Response;
    if (url.pathname.startsWith('/interaction/')) {
      const page = await client.fetch(url);
      if (page.status !== 200) throw new Error(`interaction ${url.pathname} answered ${page.status}: ${await page.text()}`);
      const { prompt, action } = (await page.json()) as { prompt: string; action: string };
      const form = prompt === 'login' ? new URLSearchParams({ accountId }) : new URLSearchParams();
      response = await client.fetch(new URL(action, issuerOrigin), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: issuerOrigin },
        body: form.toString(),
      });
    } else {
      response = await client.fetch(url);
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      throw new Error(`provider answered ${response.status} at ${url.pathname}: ${await response.text()}`);
    }
    const next = new URL(location, url);
    if (next.origin !== issuerOrigin) return next;
    url = next;
  }
  throw new Error('too many redirects at the provider');
}
