import { MAIL_CATEGORIES, type MailCategory } from '@common/contract/mail';
import type { AppContext } from '../../context';
import { newId } from '../../lib/ids';
import './attachment-kinds';
import { renderMail, type RenderedMail } from './layout';
import { attachmentRenderer } from './outbox';
import * as repo from './repo';
import { TEMPLATES, type TemplateName } from './templates';
import { isPermanentFailure, type MailTransport } from './transport';
import { UNSUBSCRIBE_KEY_PURPOSE, unsubscribeToken } from './unsubscribe';

/**
 * Retries after a failed attempt (SMTP down, 4xx, timeout): quickly at first, then hourly-ish,
 * about a day in all; after the last one the mail is marked failed (and logged). A 5xx answer is
 * final at once.
 */
export const MAIL_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 28_800_000];
/**
 * A claimed mail not finished within this lease is taken again (its worker died). Longer than any
 * one send can take (the SMTP waits are bounded in transport.ts and by SEND_TIMEOUT_MS), so a live
 * worker never loses its claim to another.
 */
export const MAIL_LEASE_MS = 120_000;
const SEND_TIMEOUT_MS = 60_000;
const BATCH = 10;

export const PREFERENCES_PATH = '/settings/email';

type LogFn = (obj: object, msg: string) => void;
export interface MailLogger {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

export interface MailWorkerOptions {
  transport: MailTransport;
  now?: () => Date;
  pollIntervalMs?: number;
  logger?: MailLogger;
}

/** The Message-ID of an outbox row: the same on every attempt, so a repeat is recognisable. */
export function messageIdOf(ctx: AppContext, mailId: string): string {
  return `<${mailId}@${new URL(ctx.config.publicUrl).hostname}>`;
}

/**
 * Sends the mail outbox, one worker per server instance (started and stopped with the app, like
 * the webhook worker).
 *
 * Never lost: a mail is a row committed with its event; a send that fails is retried with backoff;
 * a worker that dies leaves its claim to run out (MAIL_LEASE_MS) and another worker sends it.
 *
 * Never twice, with one documented window: a mail is marked sent right after the SMTP server
 * accepts it (250). A crash between that acceptance and the mark (milliseconds) makes the next
 * worker send it again, with the same Message-ID and Date, which receiving systems use to recognise
 * a repeat. A crash at any other moment sends nothing twice: before acceptance the server has not
 * taken the message (a dropped SMTP session discards it), after the mark it is not claimed again.
 * Without SMTP the .eml file is named by the mail's id, so a repeat overwrites it.
 */
export class MailWorker {
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private running: Promise<unknown> = Promise.resolve();
  private readonly now: () => Date;
  private readonly unsubscribeKey: Buffer;

  constructor(
    private readonly ctx: AppContext,
    private readonly options: MailWorkerOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.unsubscribeKey = ctx.secrets.deriveKey(UNSUBSCRIBE_KEY_PURPOSE);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const loop = async () => {
      if (this.stopped) return;
      this.running = this.runOnce().catch((err) => this.options.logger?.error({ err }, 'mail worker pass failed'));
      await this.running;
      if (!this.stopped) this.timer = setTimeout(loop, this.options.pollIntervalMs ?? 500);
    };
    this.timer = setTimeout(loop, 0);
  }

  /** Stops claiming; sends in flight finish (and are recorded) first. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    this.options.transport.close();
  }

  /** Sends everything due now and waits for it; returns how many attempts were made. */
  async runOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const now = this.now();
      const claimed = await repo.claimDueMails(this.ctx.db, this.ctx.database.dialect, now, new Date(now.getTime() + MAIL_LEASE_MS), BATCH);
      if (claimed.length === 0) return total;
      total += claimed.length;
      await Promise.all(claimed.map((mail) => this.deliver(mail).catch((err) => this.options.logger?.error({ err, mailId: mail.id }, 'mail delivery failed'))));
      if (this.stopped) return total;
    }
  }

  private async deliver(mail: repo.ClaimedMail): Promise<void> {
    const category = mail.category as MailCategory;
    if (mail.userId && MAIL_CATEGORIES[category]?.optional && !(await repo.isCategoryEnabled(this.ctx.db, mail.userId, category))) {
      await repo.finishMail(this.ctx.db, mail, { status: 'suppressed', retryAt: null, response: 'turned off by the recipient' }, newId('mat'), this.now());
      return;
    }
    let response: string;
    try {
      const { rendered, headers } = this.render(mail);
      const attachments = await Promise.all(
        mail.attachments.map(async (a) => {
          if ('kind' in a) {
            const render = attachmentRenderer(a.kind);
            if (!render) throw new Error(`no renderer registered for attachment kind "${a.kind}" (see mail/attachment-kinds.ts)`);
            return render(this.ctx, a.ref);
          }
          return { filename: a.filename, contentType: a.contentType, content: Buffer.from(a.contentBase64, 'base64') };
        }),
      );
      response = await withTimeout(
        this.options.transport.send({
          id: mail.id,
          from: this.ctx.config.mail.from,
          to: mail.to,
          subject: rendered.subject,
          text: rendered.text,
          html: rendered.html,
          messageId: messageIdOf(this.ctx, mail.id),
          date: mail.createdAt,
          headers,
          attachments,
        }),
        SEND_TIMEOUT_MS,
      );
    } catch (err) {
      const finishedAt = this.now();
      const message = err instanceof Error ? err.message : String(err);
      const delay = MAIL_RETRY_DELAYS_MS[mail.attemptNumber - 1];
      const permanent = isPermanentFailure(err) || delay === undefined;
      await repo.finishMail(
        this.ctx.db,
        mail,
        permanent ? { status: 'failed', retryAt: null, response: message } : { status: 'pending', retryAt: new Date(finishedAt.getTime() + delay), response: message },
        newId('mat'),
        finishedAt,
      );
      if (permanent) this.options.logger?.error({ mailId: mail.id, template: mail.template, attempts: mail.attemptNumber, error: message }, 'mail given up');
      else this.options.logger?.warn({ mailId: mail.id, attempt: mail.attemptNumber, retryInMs: delay, error: message }, 'mail not sent, will retry');
      return;
    }
    // Marked at once: the window in which a crash would send this mail again ends here.
    await repo.finishMail(this.ctx.db, mail, { status: 'sent', retryAt: null, response }, newId('mat'), this.now());
  }

  private render(mail: repo.ClaimedMail): { rendered: RenderedMail; headers: Record<string, string> } {
    const template = TEMPLATES[mail.template as TemplateName];
    if (!template) throw new Error(`unknown mail template "${mail.template}"`);
    const publicUrl = this.ctx.config.publicUrl;
    const content = (template.render as (data: unknown, ctx: { publicUrl: string }) => ReturnType<typeof template.render>)(mail.data, { publicUrl });
    const category = MAIL_CATEGORIES[template.category];
    const headers: Record<string, string> = { 'Auto-Submitted': 'auto-generated' };
    if (category.optional && mail.userId) {
      const token = unsubscribeToken(this.unsubscribeKey, mail.userId, template.category);
      // RFC 2369 + RFC 8058: mail clients show "Unsubscribe" and POST to this URL, no sign-in.
      headers['List-Unsubscribe'] = `<${publicUrl}/api/mail/one-click/${token}>`;
      headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
      return {
        rendered: renderMail(content, {
          reason: `You receive this as the owner of a Sixdigit account (${category.label.toLowerCase()}).`,
          unsubscribeUrl: `${publicUrl}/email/unsubscribe?token=${token}`,
          preferencesUrl: `${publicUrl}${PREFERENCES_PATH}`,
        }),
        headers,
      };
    }
    const reason =
      template.category === 'security'
        ? 'This is a security notice about your Sixdigit account; it is always sent and cannot be turned off.'
        : template.category === 'contact'
          ? 'You receive this because you wrote to Sixdigit.'
          : 'You receive this because of your Sixdigit account.';
    return { rendered: renderMail(content, { reason, preferencesUrl: mail.userId ? `${publicUrl}${PREFERENCES_PATH}` : undefined }), headers };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from the mail server within ${ms / 1000} s`)), ms);
    }),
  ]);
}
