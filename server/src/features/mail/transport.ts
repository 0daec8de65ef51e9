import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../../config';

export interface OutgoingMail {
  /** the outbox row's id: names the .eml file */
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  date: Date;
  headers: Record<string, string>;
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}

export interface MailTransport {
  /** Resolves with the server's answer once the message is accepted; rejects otherwise. */
  send(mail: OutgoingMail): Promise<string>;
  close(): void;
}

/** An SMTP answer of 5xx is final (no such mailbox, refused): retrying cannot help. */
export function isPermanentFailure(err: unknown): boolean {
  const code = (err as { responseCode?: unknown })?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

type Logger = { info(obj: object, msg: string): void };

/**
 * SMTP when `SMTP_URL` is set (a pooled connection, bounded waits so a dead server cannot hold a
 * claimed mail past its lease); otherwise each mail is written to `<DATA_DIR>/mail/<id>.eml` with
 * one log line naming the file. The file is named by the mail's id and written atomically, so a
 * repeat after a crash replaces the file instead of adding a second one.
 */
export function createMailTransport(config: Config, logger?: Logger): MailTransport {
  const { smtpUrl, outboxDir } = config.mail;
  if (smtpUrl) {
    const smtp = nodemailer.createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: 3,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    } as Parameters<typeof nodemailer.createTransport>[0]);
    return {
      send: async (mail) => {
        const info = await smtp.sendMail(toNodemailer(mail));
        return String(info.response ?? 'accepted');
      },
      close: () => smtp.close(),
    };
  }
  const files = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    send: async (mail) => {
      const info = await files.sendMail(toNodemailer(mail));
      mkdirSync(outboxDir, { recursive: true });
      const file = join(outboxDir, `${mail.date.toISOString().replace(/[:.]/g, '-')}-${mail.id}.eml`);
      writeFileSync(`${file}.tmp`, info.message as Buffer, { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
      const shown = relative(process.cwd(), file) || file;
      logger?.info({ to: mail.to, subject: mail.subject, file: shown }, `mail written to ${shown} (SMTP_URL is not set)`);
      return `written to ${shown}`;
    },
    close: () => files.close(),
  };
}

function toNodemailer(mail: OutgoingMail) {
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
    date: mail.date,
    headers: mail.headers,
    attachments: mail.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
  };
}
