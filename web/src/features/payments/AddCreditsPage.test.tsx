import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, createAppQueryClient } from '@/app/providers';
import { resetToasts } from '@/components/ui/use-toast';
import type { BusinessProfile } from '@/features/business/api';
import { makeProfile } from '@/test/fixtures';
import { ada, jsonResponse, renderApp, stubServer } from '@/test/render-app';
import { AddCreditsPage } from './AddCreditsPage';
import type { NotificationList, PaymentConfig, PaymentRequest, QrOption, QrOptions } from './api';
import { LOAD_OPTIONS_FAILED, SUBMITTED_MESSAGE } from './components/BankQrPanel';

vi.setConfig({ testTimeout: 20_000 });

const profile: BusinessProfile = makeProfile({ apiKeyCreatedAt: null });

const PACKS = [
  ['basic', 'Basic', '5000.00', 50_000],
  ['standard', 'Standard', '10000.00', 100_000],
  ['premium', 'Premium', '15000.00', 150_000],
  ['enterprise', 'Enterprise', '20000.00', 200_000],
] as const;

function option(i: number, demo = true): QrOption {
  const [packId, packName, amount, verifications] = PACKS[i]!;
  return {
    packId,
    packName,
    amount,
    verifications,
    qrCodeImageUrl: `data:image/png;base64,QR${i}`,
    upiUri: `upi://pay?pa=demo@upi&am=${amount}`,
    upiId: 'sixdigit.demo@upi',
    merchantName: 'Sixdigit Demo',
    bankAccountDetails: null,
    verificationCode: `VC${i}ABC`,
    paymentReference: `SXD-ABC123-REF0000${i}`,
    expiresAt: '2099-01-01T00:00:00.000Z',
    demo,
  };
}

function qrOptions(demo = true): QrOptions {
  return Object.fromEntries(PACKS.map((_, i) => [`option${i + 1}`, option(i, demo)]));
}

const config: PaymentConfig = { razorpay: false, razorpayKeyId: null, bankQr: true, demo: true, minimumAmount: '100.00', referenceValidDays: 7 };

type Handler = (init: RequestInit | undefined) => Response;

function serve(routes: Record<string, Handler>, user = ada) {
  return stubServer(user, (raw, init) => {
    const url = new URL(raw, 'http://localhost');
    return routes[`${init?.method ?? 'GET'} ${url.pathname}`]?.(init);
  });
}

function withBusiness(extra: Record<string, Handler> = {}) {
  return serve({
    'GET /api/business/profile': () => jsonResponse(200, profile),
    'GET /api/business/payment-config': () => jsonResponse(200, config),
    'GET /api/business/static-qr-options': () => jsonResponse(200, qrOptions()),
    'GET /api/business/payment-requests': () => jsonResponse(200, []),
    ...extra,
  });
}

function calls(fetchMock: ReturnType<typeof serve>, method: string, path: string) {
  return fetchMock.mock.calls.filter(([url, init]) => String(url).split('?')[0] === path && (init?.method ?? 'GET') === method);
}

const toastRegion = () => screen.getByRole('region', { name: /Notifications/ });

beforeEach(() => resetToasts());
afterEach(() => vi.unstubAllGlobals());

describe('gates', () => {
  it('asks a signed-out visitor to log in', async () => {
    stubServer(null);
    // Rendered without the route guard (which would redirect) to check the page's own message.
    render(
      <AppProviders client={createAppQueryClient()}>
        <MemoryRouter initialEntries={['/business/add-credits']}>
          <AddCreditsPage />
        </MemoryRouter>
      </AppProviders>,
    );
    expect(await screen.findByRole('heading', { name: 'Authentication Required' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', expect.stringMatching(/^\/api\/login/));
  });

  it('sends a user without a business to /business', async () => {
    const fetchMock = serve({
      'GET /api/business/profile': () => jsonResponse(404, { error: { code: 'not_found', message: 'No business.', request_id: 'r' } }),
    });
    renderApp('/business/add-credits');
    expect(await screen.findByRole('heading', { name: 'Business Account Required' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Set up your business' })).toHaveAttribute('href', '/business');
    expect(calls(fetchMock, 'GET', '/api/business/static-qr-options')).toHaveLength(0);
  });
});

describe('bank QR', () => {
  it('shows the balance, preselects ?pack=, and renders the chosen option with copy buttons and the demo warning', async () => {
    const user = userEvent.setup({ writeToClipboard: true });
    withBusiness();
    renderApp('/business/add-credits?pack=standard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Add Credits' })).toBeInTheDocument();
    expect(screen.getByTestId('current-credits')).toHaveTextContent('1,234 credits');
    expect(screen.getByText('₹123.40')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Bank QR' })).toHaveAttribute('aria-selected', 'true');

    const standard = await screen.findByRole('radio', { name: 'Standard: ₹10,000 for 1,00,000 verifications' });
    expect(standard).toBeChecked();
    expect(screen.getByRole('img', { name: 'UPI QR code: pay ₹10,000 to Sixdigit Demo' })).toHaveAttribute('src', 'data:image/png;base64,QR1');
    expect(screen.getByTestId('payment-reference')).toHaveTextContent('SXD-ABC123-REF00001');
    expect(screen.getByText('VC1ABC')).toBeInTheDocument();
    expect(screen.getByText('sixdigit.demo@upi')).toBeInTheDocument();
    expect(screen.getByText('Sixdigit Demo')).toBeInTheDocument();
    expect(screen.getByText(/Demo payee — do not pay/)).toBeInTheDocument();
    expect(screen.getByText('Put the payment reference in the transaction note', { selector: 'strong' })).toBeInTheDocument();
    expect(screen.getByText('Monday–Friday, 9 AM–6 PM IST')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: /^Basic: ₹5,000/ }));
    expect(screen.getByTestId('payment-reference')).toHaveTextContent('SXD-ABC123-REF00000');

    await user.click(screen.getByRole('button', { name: 'Copy payment reference' }));
    expect(await navigator.clipboard.readText()).toBe('SXD-ABC123-REF00000');
    expect(await within(toastRegion()).findByText('Payment reference copied')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy payment reference: copied' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Copy UPI ID' }));
    expect(await navigator.clipboard.readText()).toBe('sixdigit.demo@upi');
  });

  it('shows no demo warning for a real payee, and Card/UPI says Coming Soon when Razorpay is off', async () => {
    const user = userEvent.setup();
    withBusiness({ 'GET /api/business/static-qr-options': () => jsonResponse(200, qrOptions(false)) });
    renderApp('/business/add-credits');
    expect(await screen.findByRole('radio', { name: /^Basic/ })).toBeChecked();
    expect(screen.queryByText(/Demo payee/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Card/UPI' }));
    expect(await screen.findByText('Coming Soon')).toBeInTheDocument();
  });

  it('says the spec message when the options fail to load', async () => {
    withBusiness({ 'GET /api/business/static-qr-options': () => jsonResponse(500, { error: { code: 'internal', message: 'boom', request_id: 'r' } }) });
    renderApp('/business/add-credits');
    expect(await screen.findByText(LOAD_OPTIONS_FAILED, {}, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('submits the UTR for the chosen reference and lists the request as Pending', async () => {
    const user = userEvent.setup();
    const created: PaymentRequest = {
      id: 'pmt_1',
      paymentReference: 'SXD-ABC123-REF00000',
      utr: '412345678901',
      amount: '5000.00',
      packId: 'basic',
      verifications: 50_000,
      paymentMethod: 'UPI',
      method: 'upi',
      status: 'pending',
      reason: null,
      notes: 'paid from HDFC',
      createdAt: '2025-03-02T10:00:00.000Z',
      processedAt: null,
    };
    let stored: PaymentRequest[] = [];
    const fetchMock = withBusiness({
      'GET /api/business/payment-requests': () => jsonResponse(200, stored),
      'POST /api/business/payment-requests': () => {
        stored = [created];
        return jsonResponse(201, created);
      },
    });
    renderApp('/business/add-credits');
    expect(await screen.findByText('No payment requests yet.', { exact: false })).toBeInTheDocument();

    await user.type(await screen.findByLabelText('Bank transaction ID (UTR)'), ' 4123 4567 8901 ');
    await user.type(screen.getByLabelText('Notes (optional)'), 'paid from HDFC');
    await user.click(screen.getByRole('button', { name: 'Submit payment for verification' }));

    expect(await screen.findAllByText(SUBMITTED_MESSAGE)).not.toHaveLength(0);
    const [, init] = calls(fetchMock, 'POST', '/api/business/payment-requests')[0]!;
    expect(JSON.parse(String(init?.body))).toEqual({
      paymentReference: 'SXD-ABC123-REF00000',
      utr: '412345678901',
      amount: '5000.00',
      notes: 'paid from HDFC',
    });
    const list = await screen.findByRole('list', { name: 'Payment requests' });
    expect(within(list).getByText('Pending')).toBeInTheDocument();
    expect(screen.getByLabelText('Bank transaction ID (UTR)')).toHaveValue('');
  });

  it('shows the server message for a duplicate UTR and insists on a UTR', async () => {
    const user = userEvent.setup();
    const fetchMock = withBusiness({
      'POST /api/business/payment-requests': () =>
        jsonResponse(409, { error: { code: 'conflict', message: 'This bank transaction id (UTR) has already been submitted.', request_id: 'r' } }),
    });
    renderApp('/business/add-credits');
    await user.click(await screen.findByRole('button', { name: 'Submit payment for verification' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter the bank transaction id (UTR)');
    expect(calls(fetchMock, 'POST', '/api/business/payment-requests')).toHaveLength(0);

    await user.type(screen.getByLabelText('Bank transaction ID (UTR)'), '412345678901');
    await user.click(screen.getByRole('button', { name: 'Submit payment for verification' }));
    await waitFor(() => expect(screen.getAllByText('This bank transaction id (UTR) has already been submitted.').length).toBeGreaterThan(0));
    expect(within(toastRegion()).getByText('Submission Failed')).toBeInTheDocument();
  });

  it('lists rejected requests with their reason', async () => {
    withBusiness({
      'GET /api/business/payment-requests': () =>
        jsonResponse(200, [
          {
            id: 'pmt_2',
            paymentReference: 'SXD-ABC123-OLD',
            utr: 'UTR999999999',
            amount: '5000.00',
            packId: 'basic',
            verifications: 50_000,
            paymentMethod: 'UPI',
            method: 'upi',
            status: 'rejected',
            reason: 'No such payment on our statement',
            notes: null,
            createdAt: '2025-03-02T10:00:00.000Z',
            processedAt: '2025-03-02T12:00:00.000Z',
          },
        ]),
    });
    renderApp('/business/add-credits');
    const list = await screen.findByRole('list', { name: 'Payment requests' });
    expect(within(list).getByText('Rejected')).toBeInTheDocument();
    expect(within(list).getByText('Reason: No such payment on our statement')).toBeInTheDocument();
  });
});

describe('payment notices on /business', () => {
  it('shows unread decisions and marks one read on dismiss', async () => {
    const user = userEvent.setup();
    let list: NotificationList = {
      unreadCount: 2,
      notifications: [
        { id: 'ntf_1', kind: 'payment.approved', title: 'Payment approved', message: 'Your payment SXD-1 was approved. ₹5,000 added: 50,000 verifications.', subjectId: 'pmt_1', read: false, createdAt: '2025-03-02T10:00:00.000Z', readAt: null },
        { id: 'ntf_2', kind: 'payment.rejected', title: 'Payment rejected', message: 'Your payment was rejected: wrong amount', subjectId: 'pmt_2', read: false, createdAt: '2025-03-02T10:00:00.000Z', readAt: null },
        { id: 'ntf_0', kind: 'payment.approved', title: 'Old notice', message: 'Already read', subjectId: 'pmt_0', read: true, createdAt: '2025-03-01T10:00:00.000Z', readAt: '2025-03-01T11:00:00.000Z' },
      ],
    };
    const fetchMock = withBusiness({
      'GET /api/business/dashboard': () => jsonResponse(500, { error: { code: 'internal', message: 'x', request_id: 'r' } }),
      'GET /api/business/notifications': () => jsonResponse(200, list),
      'POST /api/business/notifications/ntf_2/read': () => {
        list = { unreadCount: 1, notifications: list.notifications.map((n) => (n.id === 'ntf_2' ? { ...n, read: true } : n)) };
        return jsonResponse(200, list.notifications[1]);
      },
    });
    renderApp('/business');
    const notices = await screen.findByRole('region', { name: 'Payment notices' });
    expect(within(notices).getByText('Payment approved')).toBeInTheDocument();
    expect(within(notices).getByText('Your payment was rejected: wrong amount')).toBeInTheDocument();
    expect(within(notices).queryByText('Old notice')).not.toBeInTheDocument();

    await user.click(within(notices).getByRole('button', { name: 'Dismiss: Payment rejected' }));
    await waitFor(() => expect(within(notices).queryByText('Payment rejected')).not.toBeInTheDocument());
    expect(calls(fetchMock, 'POST', '/api/business/notifications/ntf_2/read')).toHaveLength(1);
  });
});
