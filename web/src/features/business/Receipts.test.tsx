import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetToasts } from '@/components/ui/use-toast';
import { ada, jsonResponse, renderApp, stubServer } from '@/test/render-app';
import { makeProfile } from '@/test/fixtures';
import type { BillingDetails, PaymentHistoryEntry } from './api';
import { billingProblems } from './components/BillingCard';

vi.setConfig({ testTimeout: 20_000 });
vi.mock('qrcode', () => ({ default: { toDataURL: vi.fn(async () => 'data:image/png;base64,AAAA') } }));

type Handler = (init: RequestInit | undefined, url: URL) => Response;

const PAYMENTS: PaymentHistoryEntry[] = [
  { id: 'pmt_new', date: '2026-11-25T09:00:00.000Z', amount: '10000.00', method: 'UPI', reference: 'SDNEW00001', transactionId: 'UTR777777777777', status: 'pending', receipt: null },
  { id: 'order_X1', date: '2026-11-20T09:00:00.000Z', amount: '5000.00', method: 'Card/UPI (Razorpay)', reference: 'order_X1', transactionId: 'pay_ABC', status: 'paid', receipt: { id: 'rct_card', number: 'SD/2026-27/000002' } },
  { id: 'pmt_ok', date: '2026-11-10T09:00:00.000Z', amount: '5000.00', method: 'Bank transfer', reference: 'SDOK000001', transactionId: 'UTR111111111111', status: 'approved', receipt: { id: 'rct_bank', number: 'SD/2026-27/000001' } },
  { id: 'pmt_no', date: '2026-11-01T09:00:00.000Z', amount: '5000.00', method: 'UPI', reference: 'SDNO000001', transactionId: 'UTR222222222222', status: 'rejected', receipt: null },
];
const BILLING: BillingDetails = { companyName: 'Acme Payments', gstin: null, billingState: null, billingAddress: null, taxInvoices: true };

function serve(routes: Record<string, Handler>) {
  return stubServer(ada, (raw, init) => {
    const url = new URL(raw, 'http://localhost');
    return routes[`${init?.method ?? 'GET'} ${url.pathname}`]?.(init, url);
  });
}

function dashboard(extra: Record<string, Handler> = {}) {
  return serve({
    'GET /api/business/profile': () => jsonResponse(200, makeProfile()),
    'GET /api/business/dashboard': () =>
      jsonResponse(200, {
        stats: {
          today: { totalRequests: 0, successRate: 0, avgResponseTime: 0, failedVerifications: 0 },
          month: { totalRequests: 0, successfulVerifications: 0, totalCost: '0.00', avgResponseTime: 0 },
          daily: [],
        },
        recentVerifications: [],
      }),
    'GET /api/business/ledger': () => jsonResponse(200, []),
    'GET /api/business/payments': () => jsonResponse(200, PAYMENTS),
    'GET /api/business/billing': () => jsonResponse(200, BILLING),
    ...extra,
  });
}

beforeAll(() => vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} }));
beforeEach(() => resetToasts());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
});

describe('payments and receipts on /business', () => {
  it('lists every payment with its status, and a download link to the receipt of each credited one', async () => {
    dashboard();
    renderApp('/business');
    const list = await screen.findByRole('list', { name: 'Payments' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(4);
    expect(within(rows[0]!).getByText('Awaiting review')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Receipt once approved')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('₹10,000.00')).toBeInTheDocument();
    const card = within(rows[1]!).getByRole('link', { name: 'Download receipt SD/2026-27/000002 (PDF)' });
    expect(card).toHaveAttribute('href', '/api/business/receipts/rct_card.pdf');
    expect(card).toHaveAttribute('download');
    expect(within(rows[1]!).getByText('Paid')).toBeInTheDocument();
    expect(within(rows[2]!).getByRole('link', { name: /SD\/2026-27\/000001/ })).toHaveAttribute('href', '/api/business/receipts/rct_bank.pdf');
    expect(within(rows[3]!).getByText('Rejected')).toBeInTheDocument();
    expect(within(rows[3]!).queryByRole('link')).toBeNull();
  });

  it('says so when there are no payments yet', async () => {
    dashboard({ 'GET /api/business/payments': () => jsonResponse(200, []) });
    renderApp('/business');
    expect(await screen.findByText('No payments yet')).toBeInTheDocument();
  });

  it('saves billing details, refusing a mistyped GSTIN before sending it', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    dashboard({
      'PUT /api/business/billing': (init) => {
        const body = JSON.parse(String(init?.body));
        sent.push(body);
        return jsonResponse(200, { ...BILLING, ...body });
      },
    });
    renderApp('/business');
    await screen.findByText('Printed on your tax invoices. Add your GSTIN to claim input tax credit.');
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const gstin = screen.getByLabelText('GSTIN (optional)');
    await user.type(gstin, '27AAPFU0939F1ZW');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/check it for a typo/)).toBeInTheDocument();
    expect(sent).toEqual([]);

    await user.clear(gstin);
    await user.type(gstin, '27aapfu0939f1zv');
    // the state follows the GSTIN
    expect(screen.getByLabelText('Billing state')).toHaveValue('27');
    await user.type(screen.getByLabelText('Billing address'), 'Plot 4, Andheri East, Mumbai 400069');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toEqual([{ gstin: '27AAPFU0939F1ZV', billingState: '27', billingAddress: 'Plot 4, Andheri East, Mumbai 400069' }]));
    expect(await screen.findByText('27AAPFU0939F1ZV')).toBeInTheDocument();
    expect(screen.getByText('Maharashtra')).toBeInTheDocument();
  });
});

describe('billingProblems', () => {
  it('names the field at fault', () => {
    expect(billingProblems('', '', '')).toEqual({});
    expect(billingProblems('27AAPFU0939F1ZV', '27', 'x')).toEqual({});
    expect(billingProblems('27AAPFU0939F1Z', '', '').gstin).toMatch(/15 characters/);
    expect(billingProblems('27AAPFU0939F1ZV', '29', '').state).toBe('Your GSTIN is registered in Maharashtra.');
    expect(billingProblems('', '', 'x'.repeat(301)).address).toMatch(/300/);
  });
});
