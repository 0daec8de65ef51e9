import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BusinessProfile } from '@/features/business/api';
import { makeProfile } from '@/test/fixtures';
import type { PaymentConfig, RazorpayOrder, VerifiedPayment } from './api';
import type { RazorpayOptions } from './razorpay';

vi.setConfig({ testTimeout: 20_000 });

const CHECKOUT_SRC = 'https://checkout.razorpay.com/v1/checkout.js';

const profile: BusinessProfile = makeProfile({ apiKeyCreatedAt: null });

const config: PaymentConfig = {
  razorpay: true,
  razorpayKeyId: 'rzp_test_x',
  bankQr: true,
  demo: true,
  minimumAmount: '100.00',
  referenceValidDays: 7,
};

const order: RazorpayOrder = {
  id: 'order_ABC',
  amount: 1_500_000,
  currency: 'INR',
  keyId: 'rzp_test_x',
  packId: 'premium',
  description: 'Premium pack: 1,50,000 verifications',
};

const verified: VerifiedPayment = {
  status: 'paid',
  credited: true,
  orderId: 'order_ABC',
  paymentId: 'pay_XYZ',
  amount: '15000.00',
  balance: '15123.40',
  verificationsLeft: 151_234,
};

const errorBody = (status: number, message: string) => ({ error: { code: status >= 500 ? 'internal' : 'bad_request', message, request_id: 'r' } });

/**
 * razorpay.ts caches its loader promise at module level, so each test gets a fresh module graph:
 * the app, the toast store and the loader are imported anew after vi.resetModules().
 */
async function freshApp() {
  vi.resetModules();
  const [{ renderApp, stubServer, jsonResponse, ada }, { resetToasts }] = await Promise.all([
    import('@/test/render-app'),
    import('@/components/ui/use-toast'),
  ]);
  resetToasts();
  return { renderApp, stubServer, jsonResponse, ada };
}

type App = Awaited<ReturnType<typeof freshApp>>;
type Handler = (init: RequestInit | undefined) => Response;

function serve(app: App, extra: Record<string, Handler> = {}, paymentConfig: PaymentConfig = config) {
  const routes: Record<string, Handler> = {
    'GET /api/business/profile': () => app.jsonResponse(200, profile),
    'GET /api/business/payment-config': () => app.jsonResponse(200, paymentConfig),
    'GET /api/business/static-qr-options': () => app.jsonResponse(200, {}),
    'GET /api/business/payment-requests': () => app.jsonResponse(200, []),
    'POST /api/business/create-order': () => app.jsonResponse(200, order),
    'POST /api/business/verify-payment': () => app.jsonResponse(200, verified),
    ...extra,
  };
  return app.stubServer(app.ada, (raw, init) => {
    const url = new URL(raw, 'http://localhost');
    return routes[`${init?.method ?? 'GET'} ${url.pathname}`]?.(init);
  });
}

function calls(fetchMock: ReturnType<App['stubServer']>, method: string, path: string) {
  return fetchMock.mock.calls.filter(([url, init]) => String(url).split('?')[0] === path && (init?.method ?? 'GET') === method);
}

const checkoutScript = () => document.querySelector<HTMLScriptElement>(`script[src="${CHECKOUT_SRC}"]`);
const toastRegion = () => screen.getByRole('region', { name: /Notifications/ });

/** What the mocked checkout saw: the options it was built with, open() calls and payment.failed listeners. */
interface Checkout {
  options: RazorpayOptions[];
  opened: number;
  failedListeners: Array<(response: unknown) => void>;
}

function defineRazorpay(): Checkout {
  const seen: Checkout = { options: [], opened: 0, failedListeners: [] };
  window.Razorpay = class {
    constructor(options: RazorpayOptions) {
      seen.options.push(options);
    }
    open() {
      seen.opened += 1;
    }
    on(_event: 'payment.failed', callback: (response: unknown) => void) {
      seen.failedListeners.push(callback);
    }
  };
  return seen;
}

/** Lets the injected <script> "load": defines window.Razorpay, then fires the element's load event. */
async function loadCheckoutScript(): Promise<Checkout> {
  const script = await waitFor(() => {
    const found = checkoutScript();
    expect(found).not.toBeNull();
    return found!;
  });
  const checkout = defineRazorpay();
  act(() => {
    script.dispatchEvent(new Event('load'));
  });
  await waitFor(() => expect(checkout.opened).toBe(1));
  return checkout;
}

/** Opens /business/add-credits on the Card/UPI tab and returns its Pay button. */
async function openCardTab(app: App, user: ReturnType<typeof userEvent.setup>) {
  app.renderApp('/business/add-credits');
  await user.click(await screen.findByRole('tab', { name: 'Card/UPI' }));
  return screen.findByRole('button', { name: /^Pay ₹/ });
}

beforeEach(() => {
  delete window.Razorpay;
  checkoutScript()?.remove();
});

afterEach(() => {
  delete window.Razorpay;
  checkoutScript()?.remove();
  vi.unstubAllGlobals();
});

describe('Card/UPI with Razorpay configured', () => {
  it('loads checkout.js only on Pay, creates the order for the chosen pack, opens the checkout and credits on success', async () => {
    const user = userEvent.setup();
    const app = await freshApp();
    const fetchMock = serve(app);
    const pay = await openCardTab(app, user);

    await user.click(screen.getByRole('radio', { name: /^Premium: ₹15,000/ }));
    expect(pay).toHaveAccessibleName('Pay ₹15,000');
    expect(checkoutScript()).toBeNull();
    expect(calls(fetchMock, 'POST', '/api/business/create-order')).toHaveLength(0);

    await user.click(pay);
    const checkout = await loadCheckoutScript();

    const [[, orderInit]] = calls(fetchMock, 'POST', '/api/business/create-order') as [[unknown, RequestInit]];
    expect(JSON.parse(String(orderInit.body))).toEqual({ amount: '15000.00' });

    expect(checkout.options).toHaveLength(1);
    const options = checkout.options[0]!;
    expect(options).toMatchObject({
      key: 'rzp_test_x',
      amount: 1_500_000,
      currency: 'INR',
      order_id: 'order_ABC',
      description: order.description,
      prefill: { email: app.ada.email },
    });
    // Processing while the checkout is open.
    expect(pay).toBeDisabled();

    const profileLoads = calls(fetchMock, 'GET', '/api/business/profile').length;
    act(() => {
      options.handler({ razorpay_order_id: 'order_ABC', razorpay_payment_id: 'pay_XYZ', razorpay_signature: 'sig_123' });
    });

    expect(await within(toastRegion()).findByText('Payment Successful')).toBeInTheDocument();
    expect(within(toastRegion()).getByText(/₹15,000 added to your balance/)).toBeInTheDocument();
    const [[, verifyInit]] = calls(fetchMock, 'POST', '/api/business/verify-payment') as [[unknown, RequestInit]];
    expect(JSON.parse(String(verifyInit.body))).toEqual({
      razorpay_order_id: 'order_ABC',
      razorpay_payment_id: 'pay_XYZ',
      razorpay_signature: 'sig_123',
    });
    await waitFor(() => expect(pay).toBeEnabled());
    // The balance is refetched.
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/business/profile').length).toBeGreaterThan(profileLoads));
  });

  it('says Order Creation Failed when create-order answers 5xx, and never loads the script', async () => {
    const user = userEvent.setup();
    const app = await freshApp();
    serve(app, { 'POST /api/business/create-order': () => app.jsonResponse(500, errorBody(500, 'database exploded')) });
    const pay = await openCardTab(app, user);

    await user.click(pay);
    expect(await within(toastRegion()).findByText('Order Creation Failed', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(within(toastRegion()).getByText('Failed to create payment order. Please try again.')).toBeInTheDocument();
    expect(screen.queryByText(/database exploded/)).not.toBeInTheDocument();
    await waitFor(() => expect(pay).toBeEnabled());
    expect(checkoutScript()).toBeNull();
  });

  it('says Payment Failed when the checkout script fails to load', async () => {
    const user = userEvent.setup();
    const app = await freshApp();
    const fetchMock = serve(app);
    const pay = await openCardTab(app, user);

    await user.click(pay);
    const script = await waitFor(() => {
      const found = checkoutScript();
      expect(found).not.toBeNull();
      return found!;
    });
    expect(calls(fetchMock, 'POST', '/api/business/create-order')).toHaveLength(1);
    act(() => {
      script.dispatchEvent(new Event('error'));
    });

    expect(await within(toastRegion()).findByText('Payment Failed')).toBeInTheDocument();
    expect(within(toastRegion()).getByText('Failed to initiate payment. Please try again.')).toBeInTheDocument();
    await waitFor(() => expect(pay).toBeEnabled());
    // The broken tag is removed so a retry injects a new one.
    expect(checkoutScript()).toBeNull();

    await user.click(pay);
    await loadCheckoutScript();
    expect(calls(fetchMock, 'POST', '/api/business/create-order')).toHaveLength(2);
  });

  it('says Payment Verification Failed when verify-payment answers 400', async () => {
    const user = userEvent.setup();
    const app = await freshApp();
    const fetchMock = serve(app, {
      'POST /api/business/verify-payment': () => app.jsonResponse(400, errorBody(400, 'Signature mismatch.')),
    });
    const pay = await openCardTab(app, user);

    await user.click(pay);
    const checkout = await loadCheckoutScript();
    act(() => {
      checkout.options[0]!.handler({ razorpay_order_id: 'order_ABC', razorpay_payment_id: 'pay_XYZ', razorpay_signature: 'forged' });
    });

    expect(await within(toastRegion()).findByText('Payment Verification Failed')).toBeInTheDocument();
    expect(within(toastRegion()).getByText('Payment verification failed. Please contact support.')).toBeInTheDocument();
    expect(screen.queryByText('Payment Successful')).not.toBeInTheDocument();
    expect(calls(fetchMock, 'POST', '/api/business/verify-payment')).toHaveLength(1);
    await waitFor(() => expect(pay).toBeEnabled());
  });

  it("says Payment Failed on the checkout's payment.failed event", async () => {
    const user = userEvent.setup();
    const app = await freshApp();
    serve(app);
    const pay = await openCardTab(app, user);

    await user.click(pay);
    const checkout = await loadCheckoutScript();
    expect(checkout.failedListeners).toHaveLength(1);
    act(() => {
      checkout.failedListeners[0]!({ error: { code: 'BAD_REQUEST_ERROR' } });
    });

    expect(await within(toastRegion()).findByText('Payment Failed')).toBeInTheDocument();
    await waitFor(() => expect(pay).toBeEnabled());
  });

  it('returns from processing to idle when the payer dismisses the checkout', async () => {
    const user = userEvent.setup();
    const app = await freshApp();
    const fetchMock = serve(app);
    const pay = await openCardTab(app, user);
    expect(pay).toBeEnabled();

    await user.click(pay);
    const checkout = await loadCheckoutScript();
    expect(pay).toBeDisabled();

    act(() => {
      checkout.options[0]!.modal!.ondismiss!();
    });
    await waitFor(() => expect(pay).toBeEnabled());
    expect(calls(fetchMock, 'POST', '/api/business/verify-payment')).toHaveLength(0);
    expect(screen.queryByRole('region', { name: /Notifications/ })?.textContent ?? '').not.toMatch(/Payment (Successful|Failed)/);

    // Paying again reuses the loaded checkout: no second script tag.
    await user.click(pay);
    await waitFor(() => expect(checkout.opened).toBe(2));
    expect(document.querySelectorAll(`script[src="${CHECKOUT_SRC}"]`)).toHaveLength(1);
  });
});

describe('Card/UPI with Razorpay off', () => {
  it('says Coming Soon and offers no Pay button', async () => {
    const user = userEvent.setup();
    const app = await freshApp();
    const fetchMock = serve(app, {}, { ...config, razorpay: false, razorpayKeyId: null });
    app.renderApp('/business/add-credits');
    await user.click(await screen.findByRole('tab', { name: 'Card/UPI' }));

    const panel = await screen.findByRole('tabpanel', { name: 'Card/UPI' });
    expect(await within(panel).findByText('Coming Soon')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pay ₹/ })).not.toBeInTheDocument();
    expect(checkoutScript()).toBeNull();
    expect(calls(fetchMock, 'POST', '/api/business/create-order')).toHaveLength(0);
  });
});
