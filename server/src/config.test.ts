import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const key = Buffer.alloc(32, 1).toString('base64');
const production = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://sixdigit.example',
  APP_ENCRYPTION_KEY: key,
  ADMIN_EMAIL: 'ops@sixdigit.example',
  OIDC_CLIENT_ID: 'client',
  OIDC_CLIENT_SECRET: 'secret',
  SMTP_URL: 'smtp://mailer:secret@smtp.sixdigit.example:587',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('loadConfig', () => {
  it('gives a fresh install everything it needs: port 5000, SQLite under ./data, local sign-in', () => {
    const config = loadConfig({});
    expect(config.port).toBe(5000);
    expect(config.database).toEqual({ kind: 'sqlite', file: './data/sixdigit.db', checkpoints: 'thread' });
    expect(config.oidc).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:5000');
    expect(config.enterpriseHostMatch).toBe('enterprise');
  });

  it('uses PostgreSQL when DATABASE_URL is a postgres URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db:5432/app' }).database).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/app' });
    expect(loadConfig({ DATABASE_URL: 'sqlite:/var/lib/x.db' }).database).toEqual({ kind: 'sqlite', file: '/var/lib/x.db', checkpoints: 'thread' });
  });

  it("checkpoints SQLite's WAL on a thread unless SQLITE_CHECKPOINTS=writer, and refuses anything else", () => {
    expect(loadConfig({ SQLITE_CHECKPOINTS: 'writer' }).database).toEqual({ kind: 'sqlite', file: './data/sixdigit.db', checkpoints: 'writer' });
    expect(loadConfig({ SQLITE_CHECKPOINTS: '' }).database).toMatchObject({ checkpoints: 'thread' });
    expect(() => loadConfig({ SQLITE_CHECKPOINTS: 'never' })).toThrow(/SQLITE_CHECKPOINTS/);
  });

  it('defaults the issuer to Google when only a client id is set', () => {
    expect(loadConfig({ OIDC_CLIENT_ID: 'abc' }).oidc).toMatchObject({ issuer: 'https://accounts.google.com', providerName: 'Google' });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ APP_ENCRYPTION_KEY: 'c2hvcnQ=' }, 'APP_ENCRYPTION_KEY'],
    [{ ADMIN_EMAIL: 'not-an-email' }, 'ADMIN_EMAIL'],
    [{ OIDC_ISSUER: 'https://issuer.example' }, 'OIDC_CLIENT_ID'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
  ])('refuses %o with a message naming %s', (env, variable) => {
    const problems = problemsOf(env as Record<string, string>);
    expect(problems.some((p) => p.startsWith(`${variable}:`))).toBe(true);
  });

  it('refuses to start in production without an OIDC issuer, encryption key, admin e-mail, public URL or SMTP server', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    for (const variable of ['OIDC_CLIENT_ID', 'APP_ENCRYPTION_KEY', 'ADMIN_EMAIL', 'PUBLIC_URL', 'SMTP_URL']) {
      expect(problems.some((p) => p.startsWith(`${variable}:`))).toBe(true);
    }
  });

  it('accepts a complete production configuration', () => {
    const config = loadConfig(production);
    expect(config.isProduction).toBe(true);
    expect(config.oidc?.clientId).toBe('client');
  });
});

const GST_PAYEE = {
  PAYEE_UPI_ID: 'collections@hdfcbank',
  PAYEE_NAME: 'Sixdigit Technologies',
  PAYEE_GSTIN: '27AAPFU0939F1ZV',
  PAYEE_ADDRESS: '4th floor, 12 Linking Road, Bandra West, Mumbai 400050',
};

describe('payment configuration', () => {
  it('issues plain receipts until PAYEE_GSTIN is set, then tax invoices with the GSTIN’s state and SAC 998315 by default', () => {
    expect(loadConfig({}).gst).toBeUndefined();
    expect(loadConfig({ ...GST_PAYEE, PAYEE_GSTIN: ' 27aapfu0939f1zv ', PAYEE_STATE: '27' }).gst).toEqual({
      gstin: '27AAPFU0939F1ZV',
      state: '27',
      sac: '998315',
      address: GST_PAYEE.PAYEE_ADDRESS,
    });
    expect(loadConfig({ ...GST_PAYEE, PAYEE_SAC: '998314' }).gst).toMatchObject({ state: '27', sac: '998314' });
  });

  it('starts with the clearly fake demo payee and Razorpay off', () => {
    const config = loadConfig({});
    expect(config.payee).toEqual({ upiId: 'sixdigit.demo@invalid', name: 'Sixdigit Demo Payee — do not pay', bankDetails: expect.stringContaining('do not pay'), demo: true });
    expect(config.razorpay).toBeUndefined();
  });

  it('reads the payee and Razorpay settings, with Razorpay\'s API base overridable', () => {
    const config = loadConfig({
      PAYEE_UPI_ID: 'collections@hdfcbank',
      PAYEE_NAME: 'Sixdigit Technologies',
      PAYEE_BANK_DETAILS: 'HDFC Bank · A/c 50200012345678 · IFSC HDFC0001234',
      RAZORPAY_KEY_ID: 'rzp_live_Abc123',
      RAZORPAY_KEY_SECRET: 'secret-secret',
      RAZORPAY_WEBHOOK_SECRET: 'hook-secret',
      RAZORPAY_API_BASE: 'http://127.0.0.1:4010/',
    });
    expect(config.payee).toEqual({ upiId: 'collections@hdfcbank', name: 'Sixdigit Technologies', bankDetails: 'HDFC Bank · A/c 50200012345678 · IFSC HDFC0001234', demo: false });
    expect(config.razorpay).toEqual({ keyId: 'rzp_live_Abc123', keySecret: 'secret-secret', webhookSecret: 'hook-secret', apiBase: 'http://127.0.0.1:4010' });
    expect(loadConfig({ RAZORPAY_KEY_ID: 'rzp_test_x', RAZORPAY_KEY_SECRET: 'secret-secret' }).razorpay).toMatchObject({ apiBase: 'https://api.razorpay.com', webhookSecret: undefined });
  });

  it.each([
    [{ PAYEE_UPI_ID: 'not a vpa' }, 'PAYEE_UPI_ID'],
    [{ PAYEE_UPI_ID: 'pay@bank' }, 'PAYEE_NAME'],
    [{ PAYEE_NAME: 'Someone' }, 'PAYEE_UPI_ID'],
    [{ RAZORPAY_KEY_ID: 'rzp_test_x' }, 'RAZORPAY_KEY_SECRET'],
    [{ RAZORPAY_KEY_SECRET: 'secret-secret' }, 'RAZORPAY_KEY_ID'],
    [{ RAZORPAY_KEY_ID: 'key_123', RAZORPAY_KEY_SECRET: 'secret-secret' }, 'RAZORPAY_KEY_ID'],
    [{ RAZORPAY_WEBHOOK_SECRET: 'hook-secret' }, 'RAZORPAY_KEY_ID'],
    [{ RAZORPAY_API_BASE: 'api.razorpay.com' }, 'RAZORPAY_API_BASE'],
    [{ ...GST_PAYEE, PAYEE_GSTIN: '27AAPFU0939F1ZW' }, 'PAYEE_GSTIN'],
    [{ ...GST_PAYEE, PAYEE_STATE: '29' }, 'PAYEE_STATE'],
    [{ ...GST_PAYEE, PAYEE_STATE: '28' }, 'PAYEE_STATE'],
    [{ PAYEE_STATE: '27' }, 'PAYEE_GSTIN'],
    [{ ...GST_PAYEE, PAYEE_ADDRESS: '' }, 'PAYEE_ADDRESS'],
    [{ PAYEE_GSTIN: '27AAPFU0939F1ZV', PAYEE_ADDRESS: GST_PAYEE.PAYEE_ADDRESS }, 'PAYEE_UPI_ID'],
    [{ ...GST_PAYEE, PAYEE_SAC: '123456' }, 'PAYEE_SAC'],
  ])('refuses %o with a message naming %s', (env, variable) => {
    expect(problemsOf(env as Record<string, string>).some((p) => p.startsWith(`${variable}:`))).toBe(true);
  });
});
