import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createContext, migrateToLatest } from './context';
import { startupEnrolmentNotice } from './features/admin/mfa-enrolment';
import { AutoRefillWorker } from './features/autorefill/worker';
import { createMailTransport } from './features/mail/transport';
import { MailWorker } from './features/mail/worker';
import { UpkeepJob } from './features/upkeep/job';
import { createSender } from './features/webhooks/sender';
import { WebhookWorker } from './features/webhooks/worker';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const ctx = createContext(config);
  await migrateToLatest(ctx);
  const app = await buildApp(ctx);
  // Until the admin MFA exists, enrolling it needs a code only the operator sees: this log (or the CLI).
  const enrolment = await startupEnrolmentNotice(ctx);
  if (enrolment) app.log.warn(enrolment);
  const worker = config.webhookWorker
    ? new WebhookWorker(ctx, { sender: createSender({ timeoutMs: 10_000, allowPrivate: config.webhookAllowPrivate }), logger: app.log })
    : undefined;
  // Stop claiming new deliveries before the database closes; in-flight ones finish first.
  app.addHook('preClose', async () => worker?.stop());
  // The mail outbox: SMTP_URL, or .eml files under DATA_DIR/mail with a log line each.
  const mailWorker = new MailWorker(ctx, { transport: createMailTransport(config, app.log), logger: app.log });
  app.addHook('preClose', async () => mailWorker.stop());
  const upkeep = new UpkeepJob(ctx, { intervalMs: config.upkeep.intervalMs, logger: app.log });
  app.addHook('preClose', async () => upkeep.stop());
  // Charges saved mandates / issues bank-UPI requests for the refills balance crossings record.
  const refills = new AutoRefillWorker(ctx, { logger: app.log });
  app.addHook('preClose', async () => refills.stop());

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    await app.close();
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  worker?.start();
  mailWorker.start();
  upkeep.start();
  refills.start();
  const where = config.database.kind === 'sqlite' ? `SQLite at ${config.database.file}` : 'PostgreSQL';
  app.log.info(`Sixdigit is up on ${config.publicUrl} (${where}${config.oidc ? '' : ', local development sign-in'})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
