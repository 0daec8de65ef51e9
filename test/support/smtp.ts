import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on loopback (the `smtp-server` package), every accepted message parsed with
 * `mailparser`. It can be taken down and brought back on the same port (an outage), or told to
 * answer DATA with a temporary (451) or permanent (550) refusal.
 */
export interface Received {
  mail: ParsedMail;
  /** the envelope recipients (RCPT TO) */
  rcptTo: string[];
  raw: string;
}

export interface TestSmtp {
  url: string;
  port: number;
  received: Received[];
  /** what DATA answers: accept (default), a temporary or a permanent refusal */
  answer: 'accept' | 'temporary' | 'permanent';
  /** Resolves when at least `n` messages have been accepted. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  /** Stops listening (connections are refused) until `start()`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtp(port = 0): Promise<TestSmtp> {
  let server: SMTPServer | undefined;
  const smtp: TestSmtp = {
    url: '',
    port,
    received: [],
    answer: 'accept',
    async waitFor(n, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (smtp.received.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} mails, got ${smtp.received.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async stop() {
      const s = server;
      server = undefined;
      if (s) await new Promise<void>((r) => s.close(() => r()));
    },
    async start() {
      if (server) return;
      const s = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        // any user/password is fine: SMTP_URL carries credentials in production
        onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            if (smtp.answer === 'temporary') return callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
            if (smtp.answer === 'permanent') return callback(Object.assign(new Error('no such mailbox'), { responseCode: 550 }));
            const raw = Buffer.concat(chunks);
            simpleParser(raw)
              .then((mail) => {
                smtp.received.push({ mail, rcptTo: session.envelope.rcptTo.map((r) => r.address), raw: raw.toString('utf8') });
                callback();
              })
              .catch(callback);
          });
        },
      });
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(smtp.port, '127.0.0.1', () => resolve());
      });
      s.on('error', () => {});
      smtp.port = (s.server.address() as AddressInfo).port;
      smtp.url = `smtp://127.0.0.1:${smtp.port}`;
      server = s;
    },
    async close() {
      await smtp.stop();
    },
  };
  await smtp.start();
  return smtp;
}

/** The parsed mails sent to `address`, oldest first. */
export function mailsTo(smtp: TestSmtp, address: string): ParsedMail[] {
  return smtp.received.filter((r) => r.rcptTo.includes(address)).map((r) => r.mail);
}
