import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { queueMail } from '../mail/outbox';
import * as repo from './repo';
import { describeUserAgent } from './user-agent';

/**
 * "Sign-in from a new device": a device is a browser family on a system ("Firefox on Android"),
 * versions left out so an update is not a new device. The first sign-in of an account only
 * records its device (there is nothing to compare with); later a sign-in from a kind of device
 * the person never used is recorded and mailed to them, in one transaction. Sessions made for an
 * impersonation are the administrator's and are left out (they have their own notice).
 *
 * Runs right after the session is stored (better-auth's session.create.after hook), so a crash in
 * between loses the notice; the sign-in itself is unaffected. A User-Agent is what the client
 * says: this tells an honest person about a new browser, it is no defence against a thief who
 * copies theirs.
 */
export async function noteSignIn(db: Kysely<Database>, session: { userId: string; userAgent?: string | null; ipAddress?: string | null; impersonatedBy?: string | null }, now = new Date()): Promise<void> {
  if (session.impersonatedBy) return;
  const label = describeUserAgent(session.userAgent);
  const key = `${label.browser.replace(/ \d+$/, '')} on ${label.os.replace(/ \d+$/, '')}`.slice(0, 120);
  await db.transaction().execute(async (trx) => {
    const known = await repo.knownDeviceKeys(trx, session.userId);
    if (known.includes(key)) return repo.touchKnownDevice(trx, session.userId, key, now);
    const inserted = await repo.insertKnownDevice(trx, session.userId, key, now);
    // Two sign-ins racing: only the one that recorded the device mails.
    if (known.length === 0 || !inserted) return;
    await queueMail(trx, {
      to: { userId: session.userId },
      template: 'new_device_sign_in',
      data: { at: now.toISOString(), ipAddress: session.ipAddress ?? null, device: `${label.browser} on ${label.os}` },
      now,
    });
  });
}
