import { randomInt } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Transaction } from 'kysely';
import type { ContactCategory, ContactStatus, Database } from '../../db/types';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { insertAuditEntry } from '../audit/repo';
import type { CurrentUser } from '../auth/service';
import * as businessRepo from '../business/repo';
import { answer as lunaAnswer } from '../luna/service';
import { queueMail } from '../mail/outbox';
import * as repo from './repo';

/** A signed-in sender may open this many messages an hour (an address is limited by the route). */
export const MESSAGES_PER_ACCOUNT_PER_HOUR = 10;
const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function newReference(): string {
  const part = () => Array.from({ length: 4 }, () => REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)]).join('');
  return `SD-${part()}-${part()}`;
}

export const view = (m: repo.ContactMessage) => ({
  id: m.id,
  reference: m.reference,
  category: m.category,
  subject: m.subject,
  message: m.message,
  status: m.status,
  escalatedTo: m.escalatedTo,
  lunaResponse: m.lunaResponse,
  resolution: m.resolution,
  createdAt: m.createdAt.toISOString(),
  updatedAt: m.updatedAt.toISOString(),
  closedAt: m.closedAt?.toISOString() ?? null,
});

export const deskView = (m: repo.ContactMessage) => ({
  ...view(m),
  email: m.email,
  companyName: m.companyName,
  userId: m.userId,
  priority: m.category === 'refund' || m.category === 'payment' ? ('urgent' as const) : ('normal' as const),
});

/** DESIGN §8: technical → Luna at once, payment → the financial desk, refund → the admin, general → open. */
function routeOf(category: ContactCategory): { status: ContactStatus; escalatedTo: 'luna' | 'admin' | null } {
  switch (category) {
    case 'technical':
      return { status: 'assigned_to_luna', escalatedTo: 'luna' };
    case 'refund':
      return { status: 'escalated', escalatedTo: 'admin' };
    default:
      return { status: 'open', escalatedTo: null };
  }
}

async function lunaReply(ctx: AppContext, user: CurrentUser | null, m: { subject: string; message: string }): Promise<string> {
  const reply = await lunaAnswer(ctx, user, `${m.subject}\n\n${m.message}`);
  return reply.response;
}

export async function submit(
  ctx: AppContext,
  user: CurrentUser | null,
  input: { email?: string | undefined; category: ContactCategory; subject: string; message: string },
  now = new Date(),
) {
  const email = user?.email ?? input.email?.trim().toLowerCase();
  if (!email) throw new AppError('validation_failed', 'email: enter the address we should answer.');
  if (user && (await repo.countSince(ctx.db, user.id, new Date(now.getTime() - 3_600_000))) >= MESSAGES_PER_ACCOUNT_PER_HOUR) {
    throw new AppError('rate_limited', 'You have sent many messages in the last hour. Try again later, or ask Luna in the meantime.', { 'retry-after': '3600' });
  }
  const business = user ? await businessRepo.findBusinessByOwner(ctx.db, user.id) : undefined;
  const { status, escalatedTo } = routeOf(input.category);
  const lunaResponse = input.category === 'technical' ? await lunaReply(ctx, user, input) : null;
  const message: Omit<repo.ContactMessage, 'updatedAt' | 'closedAt' | 'closedBy' | 'resolution'> = {
    id: newId('msg'),
    reference: newReference(),
    userId: user?.id ?? null,
    email,
    companyName: business?.companyName ?? null,
    category: input.category,
    subject: input.subject,
    message: input.message,
    status,
    escalatedTo,
    lunaResponse,
    createdAt: now,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertMessage(trx, message);
    await insertAuditEntry(
      trx,
      { actorUserId: user?.id ?? null, actorLabel: email, action: 'contact.submitted', subjectType: 'contact_message', subjectId: message.id, details: { category: input.category, status } },
      now,
    );
    // Every sender gets the reference by e-mail; a signed-out one also gets Luna's answer there.
    await queueMail(trx, {
      to: user ? { userId: user.id } : { email },
      template: 'contact_received',
      data: { reference: message.reference, subject: message.subject, signedIn: user !== null },
      now,
    });
    if (!user && lunaResponse) await queueAnswer(trx, message, lunaResponse, 'luna', now);
  });
  const saved = (await repo.findById(ctx.db, message.id))!;
  return { message: view(saved), reference: saved.reference };
}

export async function mine(ctx: AppContext, user: CurrentUser) {
  return { messages: (await repo.listForUser(ctx.db, user.id, 50)).map(view) };
}

/** By reference AND e-mail: a reference alone tells a stranger nothing (404 either way). */
export async function status(ctx: AppContext, reference: string, email: string) {
  const found = await repo.findByReference(ctx.db, reference.trim().toUpperCase());
  if (!found || found.email !== email.trim().toLowerCase()) throw new AppError('not_found', 'No message with that reference and e-mail address.');
  return { message: view(found) };
}

export async function deskList(ctx: AppContext, filter: ContactStatus | 'all' | 'active') {
  return { messages: (await repo.listByStatus(ctx.db, filter, 200)).map(deskView) };
}

export interface DeskActor {
  userId: string;
  label: string;
}

/**
 * The answer by e-mail, for senders who wrote signed out: they have no account page to read it on.
 * Signed-in senders read it on their contact page.
 */
async function queueAnswer(trx: Transaction<Database>, m: { userId: string | null; email: string; reference: string; subject: string }, text: string, from: 'luna' | 'desk', now: Date) {
  if (m.userId !== null) return;
  await queueMail(trx, { to: { email: m.email }, template: 'contact_answer', data: { reference: m.reference, subject: m.subject, answer: text, from }, now });
}

async function move(
  ctx: AppContext,
  id: string,
  actor: DeskActor,
  action: string,
  change: Parameters<typeof repo.transition>[2],
  details: Record<string, unknown>,
  now: Date,
  answer?: { text: string; from: 'luna' | 'desk' },
) {
  const before = await repo.findById(ctx.db, id);
  if (!before) throw new AppError('not_found', 'No such message.');
  if (before.status === 'closed') throw new AppError('conflict', 'This message is closed and can no longer be changed.');
  const after = await ctx.db.transaction().execute(async (trx) => {
    const moved = await repo.transition(trx, id, change, now);
    if (!moved) return undefined;
    await insertAuditEntry(trx, { actorUserId: actor.userId, actorLabel: actor.label, action, subjectType: 'contact_message', subjectId: id, details: { from: before.status, to: moved.status, ...details } }, now);
    if (answer) await queueAnswer(trx, moved, answer.text, answer.from, now);
    return moved;
  });
  if (!after) throw new AppError('conflict', 'This message was closed meanwhile and can no longer be changed.');
  return { message: deskView(after) };
}

/** To Luna (she answers now) or to the administrator. */
export async function escalate(ctx: AppContext, id: string, to: 'luna' | 'admin', actor: DeskActor, now = new Date()) {
  const found = await repo.findById(ctx.db, id);
  if (!found) throw new AppError('not_found', 'No such message.');
  const luna = to === 'luna' && found.status !== 'closed' ? await lunaReply(ctx, null, found) : null;
  return move(
    ctx,
    id,
    actor,
    'contact.escalated',
    to === 'luna' ? { status: 'assigned_to_luna', escalated_to: 'luna', luna_response: luna } : { status: 'escalated', escalated_to: 'admin' },
    { to },
    now,
    luna ? { text: luna, from: 'luna' } : undefined,
  );
}

export async function close(ctx: AppContext, id: string, resolution: string, actor: DeskActor, now = new Date()) {
  const text = resolution.trim();
  if (!text) throw new AppError('validation_failed', 'resolution: say how it was resolved.');
  return move(ctx, id, actor, 'contact.closed', { status: 'closed', resolution: text, closed_by: actor.label, closed_at: now }, {}, now, { text, from: 'desk' });
}
