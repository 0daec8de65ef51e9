import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetToasts } from '@/components/ui/use-toast';
import type { CurrentUser } from '@/features/auth/api';
import { ada, admin, jsonResponse, renderApp, stubServer } from '@/test/render-app';
import type { DeskMessage } from '@/features/contact/api';
import type { DeskPayment } from './api';
import { ACCESS_DENIED } from './FinancialDeskPage';

vi.setConfig({ testTimeout: 20_000 });

const manager: CurrentUser = { ...ada, id: 'usr_fm', email: 'fm@example.com', role: 'financial_manager' };

const pending: DeskPayment = {
  id: 'pmt_1',
  businessId: 'biz_1',
  companyName: 'Acme Payments',
  businessEmail: 'owner@acme.test',
  paymentMethod: 'UPI',
  amount: '5000.00',
  packId: 'basic',
  paymentReference: 'SXD-ABC123-REF00000',
  verificationCode: 'VC0ABC',
  utr: '412345678901',
  notes: 'paid from HDFC',
  bankAccountDetails: 'UPI sixdigit.demo@upi (Sixdigit Demo)',
  status: 'pending',
  reason: null,
  decisionNotes: null,
  processedBy: null,
  processedAt: null,
  createdAt: '2025-03-02T10:00:00.000Z',
};

const stats = { pendingApprovals: 1, openMessages: 0, todayApprovals: 3, totalAmount: '5000.00', todayApprovedAmount: '15000.00' };

type Handler = (init: RequestInit | undefined) => Response;

function serve(user: CurrentUser, routes: Record<string, Handler>) {
  return stubServer(user, (raw, init) => {
    const url = new URL(raw, 'http://localhost');
    return routes[`${init?.method ?? 'GET'} ${url.pathname}`]?.(init);
  });
}

function desk(user: CurrentUser = manager, extra: Record<string, Handler> = {}) {
  return serve(user, {
    'GET /api/financial/pending-approvals': () => jsonResponse(200, [pending]),
    'GET /api/financial/stats': () => jsonResponse(200, stats),
    'GET /api/financial/recent': () => jsonResponse(200, []),
    ...extra,
  });
}

function calls(fetchMock: ReturnType<typeof serve>, method: string, path: string) {
  return fetchMock.mock.calls.filter(([url, init]) => String(url).split('?')[0] === path && (init?.method ?? 'GET') === method);
}

const toastRegion = () => screen.getByRole('region', { name: /Notifications/ });

beforeEach(() => resetToasts());
afterEach(() => vi.unstubAllGlobals());

describe('access', () => {
  it('denies a plain user without calling the desk API', async () => {
    const fetchMock = desk(ada);
    renderApp('/financial-manager');
    expect(await screen.findByText(ACCESS_DENIED)).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/financial'))).toHaveLength(0);
  });

  it('denies when the API answers 403 (role taken away)', async () => {
    const forbidden = () => jsonResponse(403, { error: { code: 'forbidden', message: 'No.', request_id: 'r' } });
    desk(manager, { 'GET /api/financial/pending-approvals': forbidden, 'GET /api/financial/stats': forbidden, 'GET /api/financial/recent': forbidden });
    renderApp('/financial-manager');
    expect(await screen.findByText(ACCESS_DENIED)).toBeInTheDocument();
  });

  it('lets the admin in', async () => {
    desk(admin);
    renderApp('/financial-manager');
    expect(await screen.findByRole('heading', { level: 1, name: 'Financial manager desk' })).toBeInTheDocument();
  });

  it('sends the admin to verify MFA when the desk answers 403 mfa_required (reads need it too)', async () => {
    const mfa = () => jsonResponse(403, { error: { code: 'mfa_required', message: 'Verify your authenticator code.', request_id: 'r' } });
    desk(admin, { 'GET /api/financial/pending-approvals': mfa, 'GET /api/financial/stats': mfa, 'GET /api/financial/recent': mfa });
    renderApp('/financial-manager');
    expect(await screen.findByText('MFA Verification Required')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Verify MFA' })).toHaveAttribute('href', '/admin');
  });
});

describe('desk', () => {
  it('shows the stats and the pending payment with all its details', async () => {
    desk();
    renderApp('/financial-manager');
    const list = await screen.findByRole('list', { name: 'Pending approvals' });
    for (const text of ['Acme Payments', 'owner@acme.test', 'UPI', '₹5,000', 'SXD-ABC123-REF00000', '412345678901', 'paid from HDFC']) {
      expect(within(list).getByText(text)).toBeInTheDocument();
    }
    const figures = screen.getByText('Approved today').closest('div')!;
    expect(within(figures).getByText('3')).toBeInTheDocument();
    expect(screen.getByText('Awaiting approval').closest('div')).toHaveTextContent('₹5,000');
    expect(screen.getByText('Nothing processed yet.')).toBeInTheDocument();
  });

  it('flags a UTR another business also quoted, naming the other claim; Approve stays available', async () => {
    desk(manager, { 'GET /api/financial/pending-approvals': () => jsonResponse(200, [{ ...pending, duplicateUtr: [{ id: 'pmt_2', businessId: 'biz_2', companyName: 'Beta Traders', status: 'pending' }] }]) });
    renderApp('/financial-manager');
    const note = await screen.findByRole('note', { name: 'Duplicate UTR' });
    expect(within(note).getByText('Duplicate UTR')).toBeInTheDocument();
    expect(note).toHaveTextContent('is also quoted by another payment request');
    expect(note).toHaveTextContent('Only one can be approved');
    expect(note).toHaveTextContent('Beta Traders, pmt_2, pending');
    expect(screen.getByRole('button', { name: /Approve ₹5,000 from Acme Payments/ })).toBeEnabled();
  });

  it('says when the other claim on the UTR was already credited, and disables Approve', async () => {
    desk(manager, { 'GET /api/financial/pending-approvals': () => jsonResponse(200, [{ ...pending, duplicateUtr: [{ id: 'pmt_9', businessId: 'biz_9', companyName: 'Gamma Co', status: 'approved' }] }]) });
    renderApp('/financial-manager');
    const note = await screen.findByRole('note', { name: 'Duplicate UTR' });
    expect(note).toHaveTextContent('It was already credited to Gamma Co (pmt_9): reject this claim with a reason.');
    expect(screen.getByRole('button', { name: /Approve ₹5,000 from Acme Payments/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /Reject ₹5,000 from Acme Payments/ })).toBeEnabled();
  });

  it('shows no duplicate note for a UTR quoted once', async () => {
    desk(manager, { 'GET /api/financial/pending-approvals': () => jsonResponse(200, [{ ...pending, duplicateUtr: [] }]) });
    renderApp('/financial-manager');
    await screen.findByRole('list', { name: 'Pending approvals' });
    expect(screen.queryByRole('note', { name: 'Duplicate UTR' })).not.toBeInTheDocument();
  });

  it('approves through the right URL with optional notes, and toasts', async () => {
    const user = userEvent.setup();
    let remaining = [pending];
    const fetchMock = desk(manager, {
      'GET /api/financial/pending-approvals': () => jsonResponse(200, remaining),
      'POST /api/financial/approve-payment/pmt_1': () => {
        remaining = [];
        return jsonResponse(200, { ...pending, status: 'approved', balance: '5000.00' });
      },
    });
    renderApp('/financial-manager');
    await user.click(await screen.findByRole('button', { name: 'Approve ₹5,000 from Acme Payments' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve payment' });
    await user.type(within(dialog).getByLabelText('Notes (optional)'), 'Seen on statement');
    await user.click(within(dialog).getByRole('button', { name: 'Approve and add credits' }));

    expect(await within(toastRegion()).findByText('Payment Approved')).toBeInTheDocument();
    const sent = calls(fetchMock, 'POST', '/api/financial/approve-payment/pmt_1');
    expect(sent).toHaveLength(1);
    expect(JSON.parse(String(sent[0]![1]?.body))).toEqual({ notes: 'Seen on statement' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('No payments are waiting for approval.')).toBeInTheDocument();
  });

  it('shows the server message when approval fails', async () => {
    const user = userEvent.setup();
    desk(manager, {
      'POST /api/financial/approve-payment/pmt_1': () =>
        jsonResponse(409, { error: { code: 'conflict', message: 'This payment was already approved; its credit was added once.', request_id: 'r' } }),
    });
    renderApp('/financial-manager');
    await user.click(await screen.findByRole('button', { name: /^Approve ₹5,000/ }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve and add credits' }));
    // The dialog stays open (Radix hides the rest from the accessibility tree meanwhile).
    const toast = within(screen.getByRole('region', { name: /Notifications/, hidden: true }));
    expect(await toast.findByText('Approval Failed')).toBeInTheDocument();
    expect(toast.getByText('This payment was already approved; its credit was added once.')).toBeInTheDocument();
  });

  it('needs a reason to reject, then sends it', async () => {
    const user = userEvent.setup();
    const fetchMock = desk(manager, {
      'POST /api/financial/reject-payment/pmt_1': () => jsonResponse(200, { ...pending, status: 'rejected', reason: 'No such UTR' }),
    });
    renderApp('/financial-manager');
    await user.click(await screen.findByRole('button', { name: 'Reject ₹5,000 from Acme Payments' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject payment' });
    const confirm = within(dialog).getByRole('button', { name: 'Reject payment' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Reason for rejection'), '   ');
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Reason for rejection'), 'No such UTR');
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    expect(await within(toastRegion()).findByText('Payment Rejected')).toBeInTheDocument();
    const sent = calls(fetchMock, 'POST', '/api/financial/reject-payment/pmt_1');
    expect(JSON.parse(String(sent[0]![1]?.body))).toEqual({ reason: 'No such UTR' });
  });
});

describe('contact messages', () => {
  const message: DeskMessage = {
    id: 'msg_1',
    reference: 'SD-AB12-CD34',
    category: 'payment',
    subject: 'Payment not credited',
    message: 'I paid yesterday.',
    status: 'open',
    escalatedTo: null,
    lunaResponse: null,
    resolution: null,
    createdAt: '2025-03-02T10:00:00.000Z',
    updatedAt: '2025-03-02T10:00:00.000Z',
    closedAt: null,
    email: 'owner@acme.test',
    companyName: 'Acme Payments',
    userId: 'usr_owner',
    priority: 'urgent',
  };

  it('closes a message only with a resolution, sends it, and a cancelled dialog sends nothing', async () => {
    const user = userEvent.setup();
    const fetchMock = desk(manager, {
      'GET /api/financial/contact-messages': () => jsonResponse(200, { messages: [message] }),
      'POST /api/financial/close-message/msg_1': () => jsonResponse(200, { message: { ...message, status: 'closed', resolution: 'Credited.' } }),
    });
    renderApp('/financial-manager');

    await user.click(await screen.findByRole('button', { name: 'Close: Payment not credited' }));
    let dialog = await screen.findByRole('dialog', { name: 'Close this message' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls(fetchMock, 'POST', '/api/financial/close-message/msg_1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Close: Payment not credited' }));
    dialog = await screen.findByRole('dialog', { name: 'Close this message' });
    const submit = within(dialog).getByRole('button', { name: 'Close message' });
    expect(submit).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Resolution notes'), 'Credited.');
    await user.click(submit);

    expect(await within(toastRegion()).findByText('Message closed')).toBeInTheDocument();
    const sent = calls(fetchMock, 'POST', '/api/financial/close-message/msg_1');
    expect(sent).toHaveLength(1);
    expect(JSON.parse(String(sent[0]![1]?.body))).toEqual({ resolution: 'Credited.' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
