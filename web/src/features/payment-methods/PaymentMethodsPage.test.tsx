import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOP_UP_PACKS, formatCountIndian, formatRupees } from '@common/pricing';
import { ada, jsonResponse, renderApp, stubServer } from '@/test/render-app';
import type { PaymentMethods } from './api';

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => vi.unstubAllGlobals());

const DEMO: PaymentMethods = {
  currency: 'INR',
  pricePerVerification: '0.10',
  minimumAmount: '100.00',
  packs: TOP_UP_PACKS.map((p) => ({ id: p.id, name: p.name, amount: `${p.amountPaise / 100}.00`, verifications: p.verifications, popular: p.popular, description: p.description })),
  bankTransfer: {
    available: true,
    demo: true,
    payee: { upiId: 'sixdigit.demo@invalid', name: 'Sixdigit Demo Payee — do not pay', bankDetails: 'Demo Bank · A/c 000000000000' },
    referenceValidDays: 7,
  },
  card: { available: false },
  autoRefill: { mode: 'bank' },
  review: { minHours: 2, maxHours: 4, days: 'Monday–Friday', hours: '9 AM–6 PM', timeZone: 'IST' },
};

function serve(methods: PaymentMethods | 'error', user: typeof ada | null = null) {
  return stubServer(user, (url) =>
    url === '/api/payments/methods'
      ? methods === 'error'
        ? jsonResponse(500, { error: { code: 'internal', message: 'boom', request_id: 'r' } })
        : jsonResponse(200, methods)
      : undefined,
  );
}

describe('/payment-methods', () => {
  it('shows the demo payee with the "do not pay" banner, the packs, the minimum, the review window and no card checkout', async () => {
    serve(DEMO);
    renderApp('/payment-methods');
    expect(await screen.findByText('sixdigit.demo@invalid')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Payment methods' })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('Demo payee — do not pay.');
    expect(screen.getByText('Demo Bank · A/c 000000000000')).toBeInTheDocument();
    expect(screen.getByText(/₹100; bank and UPI payments/)).toBeInTheDocument();
    expect(screen.getByText(/Usually within 2–4 hours, Monday–Friday, 9 AM–6 PM IST/)).toBeInTheDocument();
    expect(screen.getByText('Not enabled')).toBeInTheDocument();
    expect(screen.getByText(/not available on this server yet/)).toBeInTheDocument();

    const packs = screen.getByRole('region', { name: 'Top-up packs' });
    for (const pack of TOP_UP_PACKS) {
      const card = within(packs).getByText(pack.name).closest('li')!;
      expect(within(card).getByText(formatRupees(pack.amountPaise))).toBeInTheDocument();
      expect(within(card).getByText(`${formatCountIndian(pack.verifications)} verifications`)).toBeInTheDocument();
      expect(within(card).getByRole('link', { name: `Buy the ${pack.name} pack` })).toHaveAttribute('href', `/business/add-credits?pack=${pack.id}`);
    }
    expect(screen.getByRole('link', { name: /Add Credits/ })).toHaveAttribute('href', '/business/add-credits');
  });

  it('shows a real payee without the banner, and card checkout when Razorpay is configured', async () => {
    serve({
      ...DEMO,
      bankTransfer: { ...DEMO.bankTransfer, demo: false, payee: { upiId: 'collections@hdfcbank', name: 'Sixdigit Technologies', bankDetails: null } },
      card: { available: true },
    });
    renderApp('/payment-methods');
    expect(await screen.findByText('collections@hdfcbank')).toBeInTheDocument();
    expect(screen.queryByText(/Demo payee/)).not.toBeInTheDocument();
    expect(screen.queryByText('Bank account')).not.toBeInTheDocument();
    expect(screen.queryByText('Not enabled')).not.toBeInTheDocument();
    expect(screen.getByText(/credits are added as soon as the payment is confirmed/)).toBeInTheDocument();
  });

  it('says bank/UPI is not set up when the server offers no payee (production without PAYEE_UPI_ID)', async () => {
    serve({ ...DEMO, bankTransfer: { ...DEMO.bankTransfer, available: false, payee: null } });
    renderApp('/payment-methods');
    expect(await screen.findByText(/Bank and UPI top-ups are not set up on this server yet/)).toBeInTheDocument();
    expect(screen.getByText('Not available')).toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  it('offers a retry when the methods cannot be loaded', async () => {
    const fetchMock = serve('error');
    const user = userEvent.setup();
    renderApp('/payment-methods');
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent("Couldn't load the payment methods");
    vi.unstubAllGlobals();
    serve(DEMO);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('sixdigit.demo@invalid')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalled();
  });

  it('links Add Credits to the top-up page for a signed-in owner too', async () => {
    serve(DEMO, ada);
    renderApp('/payment-methods');
    await screen.findByText('sixdigit.demo@invalid');
    expect(screen.getByRole('link', { name: /Add Credits/ })).toHaveAttribute('href', '/business/add-credits');
  });
});
