import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context';
import { newId } from '../../lib/ids';
import { insertAuditEntry } from '../audit/repo';
import { findUserByEmail } from '../users/repo';
import * as repo from './mfa-repo';

/**
 * The one-time enrolment code the first admin MFA setup needs. The admin's cookie (or Google
 * account) alone must not be enough to enrol an authenticator: the code is shown only where the
 * operator looks — the server's start-up log and `npm run cli -- admin:mfa-enrol-code`.
 */
export const ENROLMENT_CODE_VALIDITY_MS = 15 * 60 * 1000;
/** 32 letters and digits without 0/O, 1/I: easy to read off a terminal and type. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const GROUPS = 4;
const GROUP_LENGTH = 4;

/** 16 characters of 32 = 80 bits: out of reach of guessing even without the attempt limit. */
export function newEnrolmentCode(): string {
  const group = () => Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return Array.from({ length: GROUPS }, group).join('-');
}

/** Case, dashes and spaces do not matter: `abcd efgh-jkmn PQRS` is `ABCDEFGHJKMNPQRS`. */
export function normaliseEnrolmentCode(text: string): string {
  return text.replace(/[\s-]+/g, '').toUpperCase();
}

export function hashEnrolmentCode(text: string): string {
  return createHash('sha256').update(normaliseEnrolmentCode(text)).digest('hex');
}

/** Compares the hashes in constant time (both are 64 hex characters). */
export function enrolmentCodeMatches(storedHash: string, given: string): boolean {
  const a = Buffer.from(storedHash, 'utf8');
  const b = Buffer.from(hashEnrolmentCode(given), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether the ADMIN_EMAIL account has a confirmed MFA (no account yet: not configured). */
export async function adminMfaConfigured(ctx: AppContext): Promise<boolean> {
  const admin = await findUserByEmail(ctx.db, ctx.config.adminEmail);
  if (!admin) return false;
  return Boolean((await repo.findMfa(ctx.db, admin.id))?.confirmedAt);
}

/** A fresh code, valid 15 minutes and once; it replaces every older one. Audited, without the code. */
export async function issueEnrolmentCode(ctx: AppContext, actorLabel: string, now = new Date()): Promise<{ code: string; expiresAt: Date }> {
  const code = newEnrolmentCode();
  const expiresAt = new Date(now.getTime() + ENROLMENT_CODE_VALIDITY_MS);
  const id = newId('mec');
  await ctx.db.transaction().execute(async (trx) => {
    await repo.replaceEnrolmentCode(trx, { id, codeHash: hashEnrolmentCode(code), expiresAt }, now);
    await insertAuditEntry(trx, { actorUserId: null, actorLabel, action: 'admin.mfa_enrolment_code_issued', subjectType: 'admin_mfa_enrolment_code', subjectId: id, details: { expiresAt: expiresAt.toISOString() } }, now);
  });
  return { code, expiresAt };
}

/** At start-up, while the admin MFA is not configured: a fresh code and the one log line that shows it. */
export async function startupEnrolmentNotice(ctx: AppContext, now = new Date()): Promise<string | null> {
  if (await adminMfaConfigured(ctx)) return null;
  const { code, expiresAt } = await issueEnrolmentCode(ctx, 'server:start-up', now);
  return (
    `Admin MFA is not set up: enrolment code ${code} (for ${ctx.config.adminEmail} at /admin; valid 15 minutes, until ` +
    `${expiresAt.toISOString()}, single use; a new one: npm run cli -- admin:mfa-enrol-code)`
  );
}
