import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetToasts } from '@/components/ui/use-toast';
import { admin, jsonResponse, renderApp, stubServer } from '@/test/render-app';
import type { AdminUser, MfaStatus } from './api';
import type { ImpersonationView } from '@common/contract/admin';

vi.setConfig({ testTimeout: 20_000 });

const verified: MfaStatus = { email: admin.email, mfaConfigured: true, mfaVerified: true, verifiedUntil: new Date(Date.now() + 20 * 60_000).toISOString(), recoveryCodesLeft: 10 };
const owner: AdminUser = {
  id: 'usr_owner',
  email: 'owner@shop.example',
  name: 'Olive Owner',
  role: 'user',
  status: 'active',
  business: { id: 'biz_1', companyName: 'Shop', balance: '100.00', apiKeyPrefix: 'sk_live_AbCd' },
  lastActiveAt: null,
  createdAt: '2026-11-01T10:00:00.000Z',
};
const running: ImpersonationView = {
  id: 'imp_1',
  adminEmail: admin.email,
  userId: 'usr_other',
  userEmail: 'helped@customer.example',
  reason: 'Ticket 77: invoices missing',
  startedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
  expiresAt: new Date(Date.now() + 25 * 60_000).toISOString(),
};

function serve(routes: Record<string, (init: RequestInit | undefined) => Response>) {
  return stubServer(admin, (raw, init) => {
    const url = new URL(raw, 'http://localhost');
    return routes[`${init?.method ?? 'GET'} ${url.pathname}`]?.(init);
  });
}

beforeEach(() => resetToasts());
afterEach(() => vi.unstubAllGlobals());

describe('/admin/impersonation', () => {
  it('shows the impersonation running now (who, by whom, since, until, why) and offers no second one', async () => {
    serve({
      'GET /api/admin/mfa/status': () => jsonResponse(200, verified),
      'GET /api/admin/impersonation': () => jsonResponse(200, { live: running }),
      'GET /api/admin/users': () => jsonResponse(200, { users: [owner] }),
    });
    renderApp('/admin/impersonation');
    const card = await screen.findByRole('region', { name: /Impersonation in progress/ });
    expect(within(card).getByText('helped@customer.example')).toBeInTheDocument();
    expect(within(card).getByText(admin.email)).toBeInTheDocument();
    expect(within(card).getByText('Ticket 77: invoices missing')).toBeInTheDocument();
    expect(within(card).getByText('(5 minutes ago)')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: `Impersonate ${owner.email}` })).toBeDisabled();
  });

  it('says none is running, and when another admin session starts one first, shows it after the 409', async () => {
    let live: ImpersonationView | null = null;
    serve({
      'GET /api/admin/mfa/status': () => jsonResponse(200, verified),
      'GET /api/admin/impersonation': () => jsonResponse(200, { live }),
      'GET /api/admin/users': () => jsonResponse(200, { users: [owner] }),
      'POST /api/admin/impersonation/start': () => {
        live = running;
        return jsonResponse(409, { error: { code: 'impersonation_active', message: 'An impersonation is already running.', request_id: 'r' } });
      },
    });
    const user = userEvent.setup();
    renderApp('/admin/impersonation');
    expect(await screen.findByText('No impersonation is running.')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: `Impersonate ${owner.email}` }));
    await user.type(await screen.findByLabelText('Reason'), 'Ticket 78');
    await user.click(screen.getByRole('button', { name: 'Start impersonation' }));
    expect(await screen.findByText('An impersonation is already running.')).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: /Impersonation in progress/ })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: `Impersonate ${owner.email}` })).toBeDisabled());
  });
});
