import { TOP_UP_PACKS } from '@common/pricing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { DEMO_PAYEE } from '../../config';
import { PaymentMethodsResponse } from '@common/contract/payments';

const REAL_PAYEE = {
  PAYEE_UPI_ID: 'collections@hdfcbank',
  PAYEE_NAME: 'Sixdigit Technologies',
  PAYEE_BANK_DETAILS: 'HDFC Bank · A/c 50200012345678 · IFSC HDFC0001234',
};
const RAZORPAY = { RAZORPAY_KEY_ID: 'rzp_test_publicKey1', RAZORPAY_KEY_SECRET: 'very-secret-razorpay-key', RAZORPAY_WEBHOOK_SECRET: 'whsec-razorpay-secret' };
const PRODUCTION = {
  NODE_ENV: 'production',
  OIDC_CLIENT_ID: 'client-id',
  OIDC_CLIENT_SECRET: 'client-secret',
  PUBLIC_URL: 'https://sixdigit.example.com',
  SMTP_URL: 'smtp://127.0.0.1:2525',
};

describeEachDialect('GET /api/payments/methods (public facts for /payment-methods)', (dialect) => {
  const apps: TestApp[] = [];
  const appWith = async (env: Record<string, string> = {}) => {
    const t = await createTestApp(dialect, env);
    apps.push(t);
    return t;
  };
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  let fresh: TestApp;
  beforeAll(async () => {
    fresh = await appWith();
  });

  it('answers signed-out visitors: the demo payee on a fresh install, the packs and minimum of the catalogue, the review window, no card checkout', async () => {
    const res = await fresh.app.inject({ method: 'GET', url: '/api/payments/methods' });
    expect(res.statusCode).toBe(200);
    const body = PaymentMethodsResponse.parse(res.json());
    expect(body).toEqual({
      currency: 'INR',
      pricePerVerification: '0.10',
      minimumAmount: '100.00',
      packs: TOP_UP_PACKS.map((p) => ({
        id: p.id,
        name: p.name,
        amount: `${p.amountPaise / 100}.00`,
        verifications: p.verifications,
        popular: p.popular,
        description: p.description,
      })),
      bankTransfer: {
        available: true,
        demo: true,
        payee: { upiId: DEMO_PAYEE.upiId, name: DEMO_PAYEE.name, bankDetails: DEMO_PAYEE.bankDetails },
        referenceValidDays: 7,
      },
      card: { available: false },
      // without Razorpay, auto-refill sends a bank/UPI request
      autoRefill: { mode: 'bank' },
      review: { minHours: 2, maxHours: 4, days: 'Monday–Friday', hours: '9 AM–6 PM', timeZone: 'IST' },
    });
  });

  it('shows the configured payee and card checkout when Razorpay is set, and never a Razorpay secret', async () => {
    const t = await appWith({ ...REAL_PAYEE, ...RAZORPAY });
    const res = await t.app.inject({ method: 'GET', url: '/api/payments/methods' });
    const body = res.json();
    expect(body.bankTransfer).toEqual({
      available: true,
      demo: false,
      payee: { upiId: REAL_PAYEE.PAYEE_UPI_ID, name: REAL_PAYEE.PAYEE_NAME, bankDetails: REAL_PAYEE.PAYEE_BANK_DETAILS },
      referenceValidDays: 7,
    });
    expect(body.card).toEqual({ available: true });
    expect(body.autoRefill).toEqual({ mode: 'razorpay' }); // charges the saved card or UPI mandate
    expect(res.body).not.toContain(RAZORPAY.RAZORPAY_KEY_SECRET);
    expect(res.body).not.toContain(RAZORPAY.RAZORPAY_WEBHOOK_SECRET);
  });

  it('gives bank details as null when only a UPI id is configured', async () => {
    const t = await appWith({ PAYEE_UPI_ID: 'pay@icici', PAYEE_NAME: 'Sixdigit' });
    const body = (await t.app.inject({ method: 'GET', url: '/api/payments/methods' })).json();
    expect(body.bankTransfer.payee).toEqual({ upiId: 'pay@icici', name: 'Sixdigit', bankDetails: null });
  });

  it('offers no bank/UPI payee on a production server that still has only the demo payee', async () => {
    const t = await appWith(PRODUCTION);
    const body = (await t.app.inject({ method: 'GET', url: '/api/payments/methods' })).json();
    expect(body.bankTransfer).toEqual({ available: false, demo: true, payee: null, referenceValidDays: 7 });
    expect(body.autoRefill).toEqual({ mode: 'unavailable' });
    expect(JSON.stringify(body)).not.toContain(DEMO_PAYEE.upiId);
  });

  it('offers the real payee on a production server that has one', async () => {
    const t = await appWith({ ...PRODUCTION, ...REAL_PAYEE });
    const body = (await t.app.inject({ method: 'GET', url: '/api/payments/methods' })).json();
    expect(body.bankTransfer).toMatchObject({ available: true, demo: false, payee: { upiId: REAL_PAYEE.PAYEE_UPI_ID } });
  });

  it('is read-only: other methods answer in the error envelope', async () => {
    const res = await fresh.app.inject({ method: 'POST', url: '/api/payments/methods', headers: { 'sec-fetch-site': 'same-origin' }, payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });
});
