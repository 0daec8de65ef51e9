import { join } from 'node:path';
import { z } from 'zod';
import { GSTIN_MESSAGES, gstinProblem, isGstStateCode } from '@common/gst';

/**
 * Every environment variable the server reads, parsed in one place.
 * A bad value stops the process with a message that names the variable.
 */
const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const booleanFlag = z.preprocess(
  emptyToUndefined,
  z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
);

const envSchema = z.object({
  NODE_ENV: z.preprocess(
    emptyToUndefined,
    z.enum(['development', 'test', 'production']).default('development'),
  ),
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(5000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.url({ message: 'must be an absolute URL' }).optional()),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^(postgres(ql)?:\/\/|sqlite:|file:)/.test(v), {
        message: 'must start with postgres://, postgresql://, sqlite: or file:',
      })
      .optional(),
  ),
  REDIS_URL: z.preprocess(
    emptyToUndefined,
    z.string().refine((v) => /^rediss?:\/\//.test(v), { message: 'must start with redis:// or rediss://' }).optional(),
  ),
  REDIS_KEY_PREFIX: z.preprocess(emptyToUndefined, z.string().regex(/^[\w:.-]{1,40}$/, 'letters, digits and : . - _ only').default('sixdigit:')),
  APP_ENCRYPTION_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, {
        message: 'must be 32 random bytes, base64-encoded (openssl rand -base64 32)',
      })
      .optional(),
  ),
  AUTH_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email({ message: 'must be an e-mail address' }).optional()),
  OIDC_ISSUER: z.preprocess(emptyToUndefined, z.url({ message: 'must be an absolute URL' }).optional()),
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  OIDC_PROVIDER_NAME: optionalString,
  ENTERPRISE_HOST_MATCH: z.preprocess(emptyToUndefined, z.string().min(1).default('enterprise')),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  TRUST_PROXY: booleanFlag,
  BODY_LIMIT_BYTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1024).default(64 * 1024)),
  WEBHOOK_ALLOW_PRIVATE: booleanFlag,
  WEBHOOK_WORKER: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
  WEBHOOK_DISABLE_AFTER_HOURS: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(24 * 365).default(24)),
  API_RATE_LIMIT_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(1000)),
  TEST_KEY_RATE_LIMIT_PER_MIN: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(100)),
  WEB_DIST_DIR: z.preprocess(emptyToUndefined, z.string().default('./dist/web')),
  PAYEE_UPI_ID: z.preprocess(
    emptyToUndefined,
    z.string().regex(/^[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9.-]{1,63}$/, 'must be a UPI id (VPA) such as payments@hdfcbank').optional(),
  ),
  PAYEE_NAME: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(100).optional()),
  PAYEE_BANK_DETAILS: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(300).optional()),
  PAYEE_GSTIN: z.preprocess(
    (v) => (typeof v === 'string' ? v.replace(/\s+/g, '').toUpperCase() || undefined : v),
    z.string().superRefine((v, check) => {
      const problem = gstinProblem(v);
      if (problem) check.addIssue({ code: 'custom', message: GSTIN_MESSAGES[problem] });
    }).optional(),
  ),
  PAYEE_STATE: z.preprocess(emptyToUndefined, z.string().refine(isGstStateCode, 'must be a two-digit GST state code, e.g. 29 for Karnataka').optional()),
  PAYEE_SAC: z.preprocess(emptyToUndefined, z.string().regex(/^99\d{4}$/, 'must be a six-digit services accounting code starting 99, e.g. 998315').default('998315')),
  PAYEE_ADDRESS: z.preprocess(emptyToUndefined, z.string().trim().min(10, 'must be the full registered address').max(300).optional()),
  RAZORPAY_KEY_ID: z.preprocess(emptyToUndefined, z.string().regex(/^rzp_(test|live)_[A-Za-z0-9]{1,40}$/, 'must look like rzp_test_… or rzp_live_…').optional()),
  RAZORPAY_KEY_SECRET: z.preprocess(emptyToUndefined, z.string().min(8, 'must be at least 8 characters').max(200).optional()),
  RAZORPAY_WEBHOOK_SECRET: z.preprocess(emptyToUndefined, z.string().min(8, 'must be at least 8 characters').max(200).optional()),
  RAZORPAY_API_BASE: z.preprocess(emptyToUndefined, z.url({ message: 'must be an absolute URL' }).default('https://api.razorpay.com')),
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^smtps?:\/\/[^/]+/.test(v) && URL.canParse(v), { message: 'must be smtp://user:pass@host:587 or smtps://user:pass@host:465' })
      .optional(),
  ),
  MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .max(200)
      .regex(/^(?:[^<>\r\n"]{1,100} <[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/, 'must be an address (billing@example.com) or "Name <billing@example.com>"')
      .optional(),
  ),
  LUNA_LLM_BASE_URL: z.preprocess(emptyToUndefined, z.url({ message: 'must be an absolute URL (an OpenAI-compatible /v1 base)' }).optional()),
  LUNA_LLM_API_KEY: optionalString,
  LUNA_LLM_MODEL: z.preprocess(emptyToUndefined, z.string().min(1).max(200).default('llama3.2')),
  LUNA_LLM_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(500).max(120_000).default(8000)),
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, 'must be at least 16 characters (openssl rand -hex 24)').max(200).optional()),
  UPKEEP_INTERVAL_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(86_400).default(3600)),
  VERIFICATION_RETENTION_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(36_500).default(0)),
  SQLITE_WRITER: z.preprocess(emptyToUndefined, z.enum(['event-loop', 'thread']).default('event-loop')),
  SQLITE_CHECKPOINTS: z.preprocess(emptyToUndefined, z.enum(['thread', 'writer']).default('thread')),
});

export type Env = z.infer<typeof envSchema>;

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  providerName: string;
}

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /**
   * SQLite `checkpoints`: who copies the WAL back into the database file — a thread of its own
   * ('thread'), or the writing connection inside its COMMIT, as SQLite does by default ('writer',
   * also what a config without it gets).
   */
  database: { kind: 'sqlite'; file: string; checkpoints?: 'thread' | 'writer' } | { kind: 'postgres'; url: string };
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  /** base64 32-byte key; undefined means "generate one under dataDir" (development only) */
  encryptionKey: string | undefined;
  authSecret: string | undefined;
  adminEmail: string;
  /** undefined: no issuer configured, the local development sign-in is used */
  oidc: OidcConfig | undefined;
  enterpriseHostMatch: string;
  logLevel: Env['LOG_LEVEL'];
  trustProxy: boolean;
  bodyLimitBytes: number;
  webDistDir: string;
  /** The public pages' server renderer (web/src/entry-server.tsx, built). */
  webSsrEntry: string;
  /** the default per-API-key limit for new businesses (each business may have its own) */
  apiRateLimitPerMinute: number;
  /** every test key's limit (sk_test_…), its own budget apart from the live key's */
  testKeyRateLimitPerMinute: number;
  /** deliver webhooks to loopback/private addresses (tests, development) */
  webhookAllowPrivate: boolean;
  /** run the webhook delivery worker in this process */
  webhookWorker: boolean;
  /** an endpoint whose every attempt failed for this long is switched off */
  webhookDisableAfterMs: number;
  payee: PayeeConfig;
  /** set with PAYEE_GSTIN: receipts are tax invoices (GST-inclusive amounts, CGST+SGST or IGST) */
  gst: PayeeGstConfig | undefined;
  razorpay: RazorpayConfig | undefined;
  /** Luna drafts answers with this OpenAI-compatible model when set (else retrieval only) */
  lunaLlm: { baseUrl: string; apiKey: string | undefined; model: string; timeoutMs: number } | undefined;
  /**
   * Outbound e-mail. `smtpUrl` undefined: messages are written as .eml files under `outboxDir`
   * (development); production refuses to start without it.
   */
  mail: { smtpUrl: string | undefined; from: string; outboxDir: string };
  /** GET /metrics answers only with this Bearer token; undefined: /metrics is off (404) */
  metricsToken: string | undefined;
  /** the upkeep job's period (0: off in this instance) and how long verification details are kept (0: forever) */
  upkeep: { intervalMs: number; verificationRetentionDays: number };
  /** SQLite: live groups of checks are written by a worker thread with its own connection ('thread'), or on the event loop */
  sqliteWriter: 'thread' | 'event-loop';
}

/** Where bank/UPI top-ups are paid. `demo` until PAYEE_UPI_ID is set: clearly fake, never payable. */
export interface PayeeConfig {
  upiId: string;
  name: string;
  bankDetails: string;
  demo: boolean;
}

/** The payee's GST registration, printed on tax invoices. */
export interface PayeeGstConfig {
  gstin: string;
  /** GST state code of the registration (the GSTIN's first two digits) */
  state: string;
  /** the services accounting code printed on each invoice line */
  sac: string;
  /** the registered address of the payee */
  address: string;
}

/** Razorpay checkout; undefined unless both RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET are set. */
export interface RazorpayConfig {
  keyId: string;
  keySecret: string;
  /** undefined: the webhook endpoint answers 501 (checkout still works through verify-payment) */
  webhookSecret: string | undefined;
  apiBase: string;
}

/** A payee no UPI app can resolve (the `invalid` handle does not exist), so nobody can pay it by mistake. */
export const DEMO_PAYEE: PayeeConfig = Object.freeze({
  upiId: 'sixdigit.demo@invalid',
  name: 'Sixdigit Demo Payee — do not pay',
  bankDetails: 'Demo Bank · A/c 000000000000 · IFSC DEMO0000000 · demo only, do not pay',
  demo: true,
});

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const GOOGLE_ISSUER = 'https://accounts.google.com';

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`),
    );
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === 'production';
  const problems: string[] = [];

  let oidc: OidcConfig | undefined;
  if (env.OIDC_CLIENT_ID) {
    oidc = {
      issuer: env.OIDC_ISSUER ?? GOOGLE_ISSUER,
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET,
      providerName: env.OIDC_PROVIDER_NAME ?? (env.OIDC_ISSUER ? 'your identity provider' : 'Google'),
    };
  } else if (env.OIDC_ISSUER) {
    problems.push('OIDC_CLIENT_ID: required when OIDC_ISSUER is set');
  }

  if (env.PAYEE_UPI_ID && !env.PAYEE_NAME) problems.push('PAYEE_NAME: required when PAYEE_UPI_ID is set (the name UPI apps show the payer)');
  if (!env.PAYEE_UPI_ID && (env.PAYEE_NAME || env.PAYEE_BANK_DETAILS)) {
    problems.push('PAYEE_UPI_ID: required when PAYEE_NAME or PAYEE_BANK_DETAILS is set');
  }
  if (env.PAYEE_GSTIN) {
    if (!env.PAYEE_UPI_ID) problems.push('PAYEE_UPI_ID: required when PAYEE_GSTIN is set (a tax invoice names the real payee)');
    if (!env.PAYEE_ADDRESS) problems.push('PAYEE_ADDRESS: required when PAYEE_GSTIN is set (a tax invoice shows the supplier’s registered address)');
    if (env.PAYEE_STATE && env.PAYEE_STATE !== env.PAYEE_GSTIN.slice(0, 2)) {
      problems.push(`PAYEE_STATE: ${env.PAYEE_STATE} is not the state of PAYEE_GSTIN (${env.PAYEE_GSTIN.slice(0, 2)})`);
    }
  } else if (env.PAYEE_STATE) {
    problems.push('PAYEE_GSTIN: required when PAYEE_STATE is set (the state decides the tax split only on a tax invoice)');
  }
  if (Boolean(env.RAZORPAY_KEY_ID) !== Boolean(env.RAZORPAY_KEY_SECRET)) {
    problems.push(`${env.RAZORPAY_KEY_ID ? 'RAZORPAY_KEY_SECRET' : 'RAZORPAY_KEY_ID'}: RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET are set together or not at all`);
  }
  if (env.RAZORPAY_WEBHOOK_SECRET && !env.RAZORPAY_KEY_ID) problems.push('RAZORPAY_KEY_ID: required when RAZORPAY_WEBHOOK_SECRET is set');

  if (isProduction) {
    if (!oidc) problems.push('OIDC_CLIENT_ID: production needs an OpenID Connect issuer (Google by default); the local sign-in is for development only');
    if (!env.APP_ENCRYPTION_KEY) problems.push('APP_ENCRYPTION_KEY: required in production (openssl rand -base64 32)');
    if (!env.ADMIN_EMAIL) problems.push('ADMIN_EMAIL: required in production');
    if (!env.PUBLIC_URL) problems.push('PUBLIC_URL: required in production (the https:// address users open)');
    if (!env.SMTP_URL) problems.push('SMTP_URL: required in production (smtp://user:pass@host:587 or smtps://…); without it no e-mail leaves the server');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const databaseUrl = env.DATABASE_URL;
  const database: Config['database'] =
    databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl)
      ? { kind: 'postgres', url: databaseUrl }
      : {
          kind: 'sqlite',
          file: databaseUrl ? databaseUrl.replace(/^(sqlite|file):(\/\/)?/, '') : `${env.DATA_DIR}/sixdigit.db`,
          checkpoints: env.SQLITE_CHECKPOINTS,
        };

  return {
    env: env.NODE_ENV,
    isProduction,
    port: env.PORT,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    dataDir: env.DATA_DIR,
    database,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    encryptionKey: env.APP_ENCRYPTION_KEY,
    authSecret: env.AUTH_SECRET,
    adminEmail: (env.ADMIN_EMAIL ?? 'admin@sixdigit.local').toLowerCase(),
    oidc,
    enterpriseHostMatch: env.ENTERPRISE_HOST_MATCH.toLowerCase(),
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    webDistDir: env.WEB_DIST_DIR,
    // Built beside the web app by `npm run build` (vite build --ssr); absent, pages render in the browser.
    webSsrEntry: join(env.WEB_DIST_DIR, '..', 'ssr', 'entry-server.js'),
    apiRateLimitPerMinute: env.API_RATE_LIMIT_PER_MINUTE,
    testKeyRateLimitPerMinute: env.TEST_KEY_RATE_LIMIT_PER_MIN,
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE,
    webhookWorker: env.WEBHOOK_WORKER === 'on',
    webhookDisableAfterMs: env.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000,
    payee: env.PAYEE_UPI_ID
      ? { upiId: env.PAYEE_UPI_ID, name: env.PAYEE_NAME!, bankDetails: env.PAYEE_BANK_DETAILS ?? '', demo: false }
      : DEMO_PAYEE,
    gst: env.PAYEE_GSTIN
      ? { gstin: env.PAYEE_GSTIN, state: env.PAYEE_GSTIN.slice(0, 2), sac: env.PAYEE_SAC, address: env.PAYEE_ADDRESS! }
      : undefined,
    razorpay:
      env.RAZORPAY_KEY_ID && env.RAZORPAY_KEY_SECRET
        ? {
            keyId: env.RAZORPAY_KEY_ID,
            keySecret: env.RAZORPAY_KEY_SECRET,
            webhookSecret: env.RAZORPAY_WEBHOOK_SECRET,
            apiBase: env.RAZORPAY_API_BASE.replace(/\/+$/, ''),
          }
        : undefined,
    lunaLlm: env.LUNA_LLM_BASE_URL
      ? { baseUrl: env.LUNA_LLM_BASE_URL.replace(/\/+$/, ''), apiKey: env.LUNA_LLM_API_KEY, model: env.LUNA_LLM_MODEL, timeoutMs: env.LUNA_LLM_TIMEOUT_MS }
      : undefined,
    mail: {
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM ?? `Sixdigit <no-reply@${new URL(env.PUBLIC_URL ?? 'http://localhost').hostname}>`,
      outboxDir: join(env.DATA_DIR, 'mail'),
    },
    metricsToken: env.METRICS_TOKEN,
    upkeep: { intervalMs: env.UPKEEP_INTERVAL_SECONDS * 1000, verificationRetentionDays: env.VERIFICATION_RETENTION_DAYS },
    sqliteWriter: env.SQLITE_WRITER,
  };
}
