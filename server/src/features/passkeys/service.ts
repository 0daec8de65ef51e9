import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { AuthenticationOptions, Passkey, PasskeyAdded, PasskeyRemoved, RegistrationOptions } from '@common/contract/passkeys';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { insertAuditEntry } from '../audit/repo';
import { queueMail } from '../mail/outbox';
import type { CurrentUser } from '../auth/service';
import { revokeOtherSessions } from '../auth/second-factor';
import * as repo from './repo';

/** A ceremony's challenge is good for 5 minutes, once (the browser's own timeout is the same). */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Enough for every device a person owns; a bound on what one account can store. */
export const MAX_PASSKEYS_PER_USER = 20;
/** The random id that binds a signed-out sign-in ceremony to the browser that began it. */
export const CEREMONY_COOKIE = 'sixdigit_passkey_ceremony';
const RP_NAME = 'Sixdigit';
/**
 * Adding or deleting a passkey needs a sign-in this recent: a stolen session cookie, once it is
 * older, cannot plant a passkey of its own (lasting access) or delete the owner's.
 */
export const RECENT_SIGN_IN_MS = 15 * 60 * 1000;

/** The relying party is the main site (PUBLIC_URL): its host is the RP ID, its origin the one accepted. */
export function relyingParty(ctx: AppContext): { rpID: string; origin: string } {
  const url = new URL(ctx.config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

const toBytes = (base64url: string) => new Uint8Array(Buffer.from(base64url, 'base64url'));
/** WebAuthn's user handle: the account id's bytes (no e-mail, nothing personal, WebAuthn §14.6.1). */
const userHandle = (userId: string) => new Uint8Array(Buffer.from(userId, 'utf8'));

export function toView(row: repo.PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    prfSupported: row.prfSupported,
    deviceType: row.deviceType,
    backedUp: row.backedUp,
    transports: row.transports,
  };
}

/** The challenge the browser signed, read from its clientDataJSON (verification re-checks it). */
function signedChallenge(clientDataJSON: string): string {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    if (typeof data.challenge === 'string' && data.challenge.length > 0 && data.challenge.length <= 128) return data.challenge;
  } catch {
    // fall through
  }
  throw new AppError('passkey_rejected', 'The passkey response could not be read. Try again.');
}

const STALE = 'This passkey request has expired or was already used. Try again.';

async function newChallenge(ctx: AppContext, purpose: repo.ChallengePurpose, binding: repo.ChallengeBinding, challenge: string, now: Date) {
  await repo.insertChallenge(ctx.db, challenge, purpose, binding, new Date(now.getTime() + CHALLENGE_TTL_MS), now);
}

// --- the signed-in person's passkeys ----------------------------------------------------------

async function requireRecentSignIn(ctx: AppContext, sessionId: string, now: Date): Promise<void> {
  const createdAt = await repo.sessionCreatedAt(ctx.db, sessionId);
  if (!createdAt || now.getTime() - createdAt.getTime() > RECENT_SIGN_IN_MS) {
    throw new AppError('reauthentication_required', 'For your safety, sign in again (within the last 15 minutes) to add or delete a passkey.');
  }
}

export async function list(ctx: AppContext, user: CurrentUser): Promise<Passkey[]> {
  return (await repo.listForUser(ctx.db, user.id)).map(toView);
}

/** Options to create a discoverable passkey with user verification, asking for PRF. */
export async function registrationOptions(ctx: AppContext, user: CurrentUser, sessionId: string, now = new Date()): Promise<RegistrationOptions> {
  await requireRecentSignIn(ctx, sessionId, now);
  const existing = await repo.listForUser(ctx.db, user.id);
  if (existing.length >= MAX_PASSKEYS_PER_USER) throw new AppError('conflict', `You already have ${MAX_PASSKEYS_PER_USER} passkeys. Delete one first.`);
  const { rpID } = relyingParty(ctx);
  const displayName = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userID: userHandle(user.id),
    userName: user.email,
    userDisplayName: displayName,
    attestationType: 'none',
    // The same authenticator twice would only be a second name for one key.
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports as never })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    timeout: CHALLENGE_TTL_MS,
    // The vault (a later issue) derives its key from PRF; asked now so the passkey can serve it.
    extensions: { prf: {} } as never,
  });
  await newChallenge(ctx, 'register', { userId: user.id, sessionId }, options.challenge, now);
  // The library's JSON type is the WebAuthn dictionary the contract's loose schema describes.
  return options as unknown as RegistrationOptions;
}

export async function add(ctx: AppContext, user: CurrentUser, sessionId: string, name: string, response: RegistrationResponseJSON, now = new Date()): Promise<PasskeyAdded> {
  const challenge = signedChallenge(response.response.clientDataJSON);
  if (!(await repo.consumeChallenge(ctx.db, challenge, 'register', { userId: user.id, sessionId }, now))) throw new AppError('passkey_rejected', STALE);
  const { rpID, origin } = relyingParty(ctx);
  let verified;
  try {
    verified = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: true });
  } catch (err) {
    throw new AppError('passkey_rejected', `The passkey could not be verified: ${(err as Error).message}`);
  }
  if (!verified.verified) throw new AppError('passkey_rejected', 'The passkey could not be verified.');
  const info = verified.registrationInfo;
  if (await repo.findByCredentialId(ctx.db, info.credential.id)) throw new AppError('conflict', 'This passkey is already registered.');
  const prf = (response.clientExtensionResults as { prf?: { enabled?: unknown } }).prf;
  const row: repo.PasskeyRow = {
    id: newId('pk'),
    userId: user.id,
    name,
    credentialId: info.credential.id,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: (info.credential.transports ?? response.response.transports ?? []).slice(0, 10),
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
    prfSupported: prf?.enabled === true,
    createdAt: now,
    lastUsedAt: null,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertPasskey(trx, row);
    await insertAuditEntry(trx, { actorUserId: user.id, actorLabel: user.email, action: 'passkey.added', subjectType: 'passkey', subjectId: row.id, details: { name, prfSupported: row.prfSupported, deviceType: row.deviceType } }, now);
    await queueMail(trx, { to: { userId: user.id }, template: 'passkey_changed', data: { action: 'added', name, at: now.toISOString() }, now });
  });
  // A new way in: whoever else holds a session of this account must sign in again.
  const otherSessionsEnded = await revokeOtherSessions(ctx, user.id, sessionId, 'passkey_added');
  return { passkey: toView(row), otherSessionsEnded };
}

export async function rename(ctx: AppContext, user: CurrentUser, id: string, name: string): Promise<Passkey> {
  if (!(await repo.rename(ctx.db, user.id, id, name))) throw new AppError('not_found', 'No such passkey.');
  return toView((await repo.findForUser(ctx.db, user.id, id))!);
}

export async function remove(ctx: AppContext, user: CurrentUser, sessionId: string, id: string, now = new Date()): Promise<PasskeyRemoved> {
  if (!(await repo.findForUser(ctx.db, user.id, id))) throw new AppError('not_found', 'No such passkey.');
  await requireRecentSignIn(ctx, sessionId, now);
  const removed = await ctx.db.transaction().execute(async (trx) => {
    const row = await repo.findForUser(trx, user.id, id);
    if (!row || !(await repo.remove(trx, user.id, id))) return false;
    await insertAuditEntry(trx, { actorUserId: user.id, actorLabel: user.email, action: 'passkey.removed', subjectType: 'passkey', subjectId: id, details: { name: row.name } }, now);
    await queueMail(trx, { to: { userId: user.id }, template: 'passkey_changed', data: { action: 'removed', name: row.name, at: now.toISOString() }, now });
    return true;
  });
  if (!removed) throw new AppError('not_found', 'No such passkey.');
  // A session begun with the removed passkey (a lost phone) must not outlive it.
  return { otherSessionsEnded: await revokeOtherSessions(ctx, user.id, sessionId, 'passkey_removed') };
}

// --- assertions: sign-in, the second step, admin MFA --------------------------------------------

/** Options for signing in: discoverable (no allowCredentials), so the browser offers every passkey for this site. */
export async function signInOptions(ctx: AppContext, binding: { sessionId: string; userId: string } | { ceremonyId: string }, now = new Date()): Promise<AuthenticationOptions> {
  const { rpID } = relyingParty(ctx);
  // On the second step the person is known: the browser need offer only their passkeys.
  const allow = 'userId' in binding ? (await repo.listForUser(ctx.db, binding.userId)).map((p) => ({ id: p.credentialId, transports: p.transports as never })) : undefined;
  const options = await generateAuthenticationOptions({ rpID, userVerification: 'required', timeout: CHALLENGE_TTL_MS, ...(allow ? { allowCredentials: allow } : {}) });
  await newChallenge(ctx, 'sign_in', 'userId' in binding ? { sessionId: binding.sessionId } : { ceremonyId: binding.ceremonyId }, options.challenge, now);
  return options as unknown as AuthenticationOptions;
}

export async function adminMfaOptions(ctx: AppContext, user: CurrentUser, sessionId: string, now = new Date()): Promise<AuthenticationOptions> {
  const passkeys = await repo.listForUser(ctx.db, user.id);
  if (passkeys.length === 0) throw new AppError('conflict', 'You have no passkey yet: add one on the Account TOTP page first.');
  const { rpID } = relyingParty(ctx);
  const options = await generateAuthenticationOptions({
    rpID,
    userVerification: 'required',
    timeout: CHALLENGE_TTL_MS,
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports as never })),
  });
  await newChallenge(ctx, 'admin_mfa', { userId: user.id, sessionId }, options.challenge, now);
  return options as unknown as AuthenticationOptions;
}

/**
 * Checks one assertion: its challenge (used up here, bound as given), that the passkey is
 * registered (and belongs to `expectedUserId` when given), its signature with user verification,
 * and its counter. Records the use. Throws AppError (passkey_rejected, forbidden) when refused.
 */
export async function checkAssertion(
  ctx: AppContext,
  response: AuthenticationResponseJSON,
  purpose: repo.ChallengePurpose,
  binding: repo.ChallengeBinding,
  expectedUserId: string | null,
  now = new Date(),
  db: repo.Executor = ctx.db,
): Promise<repo.PasskeyRow> {
  const challenge = signedChallenge(response.response.clientDataJSON);
  if (!(await repo.consumeChallenge(db, challenge, purpose, binding, now))) throw new AppError('passkey_rejected', STALE);
  const passkey = await repo.findByCredentialId(db, response.id);
  if (!passkey) throw new AppError('passkey_rejected', 'This passkey is not registered with Sixdigit (it may have been deleted).');
  if (expectedUserId !== null && passkey.userId !== expectedUserId) throw new AppError('forbidden', 'This passkey belongs to another account.');
  // A discoverable credential names its account: it must be the one the passkey was made for.
  const handle = response.response.userHandle;
  if (handle && Buffer.from(handle, 'base64url').toString('utf8') !== passkey.userId) throw new AppError('passkey_rejected', 'The passkey answered for another account.');
  const { rpID, origin } = relyingParty(ctx);
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
      credential: { id: passkey.credentialId, publicKey: toBytes(passkey.publicKey), counter: passkey.counter, transports: passkey.transports as never },
    });
  } catch (err) {
    throw new AppError('passkey_rejected', `The passkey could not be verified: ${(err as Error).message}`);
  }
  if (!result.verified) throw new AppError('passkey_rejected', 'The passkey could not be verified.');
  const info = result.authenticationInfo;
  // Compare-and-set on the counter: of two assertions with the same counter only one is recorded.
  if (!(await repo.recordUse(db, passkey.id, passkey.counter, info.newCounter, info.credentialBackedUp, now))) {
    throw new AppError('passkey_rejected', 'The passkey was used twice at once. Try again.');
  }
  return { ...passkey, counter: info.newCounter, lastUsedAt: now };
}

/** A random id for the ceremony cookie of a signed-out sign-in. */
export function newCeremonyId(): string {
  return randomBytes(24).toString('base64url');
}
