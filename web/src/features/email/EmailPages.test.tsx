import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetToasts } from '@/components/ui/use-toast';
import { ada, jsonResponse, renderApp, stubServer } from '@/test/render-app';
import type { EmailPreferences, UnsubscribeState } from './api';

vi.setConfig({ testTimeout: 20_000 });

const preferences = (balance: boolean): EmailPreferences => ({
  email: ada.email!,
  preferences: [
    { category: 'payments', label: 'Payments', description: 'Top-ups.', enabled: true },
    { category: 'balance', label: 'Balance alerts', description: 'Low balance.', enabled: balance },
    { category: 'webhooks', label: 'Webhook problems', description: 'Endpoints switched off.', enabled: true },
  ],
  alwaysSent: [{ label: 'Security notices', description: 'Always sent.' }],
});

beforeEach(() => resetToasts());
afterEach(() => vi.unstubAllGlobals());

describe('/settings/email', () => {
  it('shows each optional category with its state and saves a change; says what is always sent', async () => {
    const user = userEvent.setup();
    let balance = true;
    const fetchMock = stubServer(ada, (url, init) => {
      if (url === '/api/user/email-preferences' && (init?.method ?? 'GET') === 'GET') return jsonResponse(200, preferences(balance));
      if (url === '/api/user/email-preferences' && init?.method === 'PUT') {
        balance = JSON.parse(String(init.body)).enabled;
        return jsonResponse(200, preferences(balance));
      }
      return undefined;
    });
    renderApp('/settings/email');
    expect(await screen.findByRole('heading', { level: 1, name: 'E-mail' })).toBeInTheDocument();
    const box = await screen.findByRole('checkbox', { name: /Balance alerts/ });
    expect(box).toBeChecked();
    expect(screen.getByText('Security notices')).toBeInTheDocument();
    await user.click(box);
    await waitFor(() => expect(screen.getByRole('checkbox', { name: /Balance alerts/ })).not.toBeChecked());
    const puts = fetchMock.mock.calls.filter(([u, i]) => String(u) === '/api/user/email-preferences' && i?.method === 'PUT');
    expect(puts.map(([, i]) => JSON.parse(String(i?.body)))).toEqual([{ category: 'balance', enabled: false }]);
  });
});

describe('/email/unsubscribe', () => {
  it('opening the link changes nothing; the button turns the category off, and back on', async () => {
    const user = userEvent.setup();
    let state: UnsubscribeState = { category: 'payments', label: 'Payments', description: 'Top-ups.', maskedEmail: 'a•••@example.com', enabled: true };
    const fetchMock = stubServer(null, (url, init) => {
      if (url.startsWith('/api/mail/unsubscribe?token=u1.abc')) return jsonResponse(200, state);
      if (url === '/api/mail/unsubscribe' && init?.method === 'POST') {
        state = { ...state, enabled: JSON.parse(String(init.body)).enabled };
        return jsonResponse(200, state);
      }
      return undefined;
    });
    renderApp('/email/unsubscribe?token=u1.abc.payments.mac');
    expect(await screen.findByText(/Payments to a•••@example.com/)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, i]) => i?.method === 'POST')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Stop payments e-mails' }));
    expect(await screen.findByText('You no longer receive these mails.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send me payments e-mails again' }));
    expect(await screen.findByText('You receive these mails.')).toBeInTheDocument();
  });

  it('an invalid link says so', async () => {
    stubServer(null, (url) => (url.startsWith('/api/mail/unsubscribe?') ? jsonResponse(404, { error: { code: 'not_found', message: 'This unsubscribe link is not valid.', request_id: 'r' } }) : undefined));
    renderApp('/email/unsubscribe?token=u1.bad.bad.bad');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(/not valid/)).toBeInTheDocument();
  });
});
