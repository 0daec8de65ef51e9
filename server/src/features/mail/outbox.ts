import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Database } from '../../db/types';
import { newId } from '../../lib/ids';
import * as repo from './repo';
import { TEMPLATES, type TemplateData, type TemplateName } from './templates';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * A file attached to a mail, in one of two forms:
 *
 * - `{ filename, contentType, content }`: the bytes, stored with the outbox row (base64 in its JSON).
 *   For files that exist when the mail is queued and are small (a few hundred KB at most).
 * - `{ kind, ref }`: a reference, turned into bytes when the mail is sent by the renderer
 *   registered for `kind` (`registerAttachment`). For files made from database rows, such as a
 *   receipt PDF made from its receipt row: the outbox row stays small, the file is made from the
 *   committed data, and a retry makes the same file again. The renderer must be deterministic
 *   for a given ref (a repeat after a crash should carry the same file) and its module must be
 *   imported by `attachment-kinds.ts`, so every process that sends mail knows it.
 */
export type MailAttachment = StoredAttachment | AttachmentRef;
export interface StoredAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}
export interface AttachmentRef {
  kind: string;
  ref: string;
}

export interface RenderedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}
export type AttachmentRenderer = (ctx: AppContext, ref: string) => Promise<RenderedAttachment>;

const renderers = new Map<string, AttachmentRenderer>();

/** Registers how to make the file for attachments `{ kind, ref }` at send time. */
export function registerAttachment(kind: string, render: AttachmentRenderer): void {
  if (renderers.has(kind) && renderers.get(kind) !== render) throw new Error(`attachment kind ${kind} is registered twice`);
  renderers.set(kind, render);
}

export function attachmentRenderer(kind: string): AttachmentRenderer | undefined {
  return renderers.get(kind);
}

/** How an attachment is stored in the row's JSON. */
export type StoredAttachmentJson = { filename: string; contentType: string; contentBase64: string } | { kind: string; ref: string };

export interface QueueMail<T extends TemplateName> {
  /** a person (their current address, their preferences, unsubscribe links) or a bare address (a signed-out contact sender) */
  to: { userId: string } | { email: string };
  template: T;
  data: TemplateData<T>;
  attachments?: MailAttachment[];
  /** at most one mail is ever queued per key (e.g. `balance_low:<business>:<day>`) */
  dedupeKey?: string;
  now?: Date;
}

/**
 * Queues one mail. Call it with the transaction of the event that causes the mail: the mail is
 * sent if and only if that transaction commits (the outbox pattern), and the worker sends it later
 * with retries. Returns the mail's id, or null when nothing was queued (the dedupe key was used,
 * or the person has no address).
 *
 * Whether the person turned the category off is checked when the mail is sent, so a choice made
 * while a mail waits is honoured.
 */
export async function queueMail<T extends TemplateName>(db: Executor, mail: QueueMail<T>): Promise<string | null> {
  const now = mail.now ?? new Date();
  let userId: string | null = null;
  let address: string;
  if ('userId' in mail.to) {
    userId = mail.to.userId;
    const found = await repo.emailOf(db, userId);
    if (!found) return null;
    address = found;
  } else {
    address = mail.to.email;
  }
  const id = newId('mail');
  const inserted = await repo.insertMail(db, {
    id,
    userId,
    to: address,
    category: TEMPLATES[mail.template].category,
    template: mail.template,
    data: mail.data,
    attachments: (mail.attachments ?? []).map(toJson),
    dedupeKey: mail.dedupeKey ?? null,
    now,
  });
  return inserted ? id : null;
}

function toJson(attachment: MailAttachment): StoredAttachmentJson {
  if ('kind' in attachment) return { kind: attachment.kind, ref: attachment.ref };
  return { filename: attachment.filename, contentType: attachment.contentType, contentBase64: attachment.content.toString('base64') };
}
