import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, createAppQueryClient } from '@/app/providers';
import { resetToasts } from '@/components/ui/use-toast';
import { jsonResponse } from '@/test/render-app';
import { LOG_REFETCH_MS, type Webhook, type WebhookLogEntry } from './api';
import { WebhooksSection } from './WebhooksSection';

const HOOK: Webhook = {
  id: 'wh_1',
  url: 'https://example.com/hooks',
  events: ['verification.success', 'credit.low'],
  description: null,
  isActive: true,
  disabledReason: null,
  disabledAt: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  lastTriggered: null,
  livemode: true,
};

function log(partial: Partial<WebhookLogEntry>): WebhookLogEntry {
  return {
    id: `wha_${Math.random().toString(36).slice(2)}`,
    deliveryId: `msg_${Math.random().toString(36).slice(2)}`,
    event: 'verification.success',
    webhookId: HOOK.id,
    webhookUrl: HOOK.url,
    verificationId: null,
    responseStatus: 200,
    error: null,
    retryCount: 0,
    attemptNumber: 1,
    responseTime: 12.5,
    createdAt: '2026-11-21T10:00:00.000Z',
    deliveryStatus: 'succeeded',
    ...partial,
  };
}

interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** A fake server behind fetch: GETs answer `state`; other calls answer what `on` returns. */
function fakeServer(state: { hooks: Webhook[]; logs: WebhookLogEntry[] }, on: (call: Call) => Response | undefined = () => undefined) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? 'GET';
    const call = { method, url, body: init?.body ? JSON.parse(init.body as string) : undefined };
    calls.push(call);
    const answer = on(call);
    if (answer) return answer;
    // The section reads one mode's endpoints and log (live unless told).
    if (method === 'GET' && url === '/api/webhooks?mode=live') return jsonResponse(200, state.hooks);
    if (method === 'GET' && url === '/api/webhooks/logs?mode=live') return jsonResponse(200, state.logs);
    return jsonResponse(404, { error: { code: 'not_found', message: `No route for ${method} ${url}`, request_id: 'req_t' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

function renderSection() {
  return render(
    <AppProviders client={createAppQueryClient()}>
      <WebhooksSection />
    </AppProviders>,
  );
}

// While a modal dialog is open Radix hides the rest of the page from the accessibility tree.
const toastRegion = () => screen.getByRole('region', { name: /notifications/i, hidden: true });

async function expectToast(title: string, description?: string | RegExp) {
  const region = toastRegion();
  await waitFor(() => expect(within(region).getByText(title)).toBeInTheDocument());
  if (description) expect(within(region).getByText(description)).toBeInTheDocument();
}

beforeEach(() => {
  resetToasts();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  resetToasts();
});

describe('WebhooksSection', () => {
  it('lists webhooks with their URL, events as badges, switch and last triggered', async () => {
    fakeServer({ hooks: [HOOK, { ...HOOK, id: 'wh_2', url: 'https://b.example/h', isActive: false, events: ['credit.depleted'], lastTriggered: '2026-11-21T09:30:00.000Z', disabledReason: 'The endpoint answered 410 Gone.' }], logs: [] });
    renderSection();
    const rows = await screen.findAllByTestId('webhook-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText(HOOK.url)).toBeInTheDocument();
    expect(within(rows[0]!).getByText('verification.success')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('credit.low')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Last triggered: Never')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('switch', { name: `Active: ${HOOK.url}` })).toBeChecked();
    expect(within(rows[1]!).getByRole('switch')).not.toBeChecked();
    expect(within(rows[1]!).getByText('Paused')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/410 Gone/)).toBeInTheDocument();
    expect(within(rows[1]!).queryByText('Last triggered: Never')).toBeNull();
    // A paused endpoint cannot be sent a test event.
    expect(within(rows[1]!).getByRole('button', { name: /send test event/i })).toBeDisabled();
  });

  it('shows empty states for no webhooks and no deliveries', async () => {
    fakeServer({ hooks: [], logs: [] });
    renderSection();
    expect(await screen.findByText('No webhooks yet')).toBeInTheDocument();
    expect(await screen.findByText('No deliveries yet')).toBeInTheDocument();
  });

  it('shows the delivery log newest first with a worded badge per SPEC §4 rule', async () => {
    fakeServer({
      hooks: [HOOK],
      logs: [
        log({ responseStatus: 500, createdAt: '2026-11-21T10:00:01.000Z', event: 'credit.low', retryCount: 0 }),
        log({ responseStatus: null, attemptNumber: 0, responseTime: null, createdAt: '2026-11-21T10:00:06.000Z', deliveryStatus: 'pending', event: 'test.ping' }),
        log({ responseStatus: 204, createdAt: '2026-11-21T10:00:05.000Z', verificationId: 'ver_abc', retryCount: 2, responseTime: 42 }),
        log({ responseStatus: 404, createdAt: '2026-11-21T10:00:04.000Z' }),
        log({ responseStatus: 302, createdAt: '2026-11-21T10:00:03.000Z' }),
        log({ responseStatus: null, error: 'timed out after 10000 ms', createdAt: '2026-11-21T10:00:02.000Z', responseTime: 10000.4, deliveryStatus: 'pending' }),
      ],
    });
    renderSection();
    const rows = await screen.findAllByTestId('delivery-row');
    const badges = rows.map((r) => within(r).getAllByText(/^(Pending|Success|Client Error|Server Error|Unknown|No response)$/)[0]!.textContent);
    expect(badges).toEqual(['Pending', 'Success', 'Client Error', 'Unknown', 'No response', 'Server Error']);
    const success = rows[1]!;
    expect(within(success).getByText('204')).toBeInTheDocument();
    expect(within(success).getByText('ver_abc')).toBeInTheDocument();
    expect(within(success).getByText('42 ms')).toBeInTheDocument();
    expect(within(success).getAllByRole('cell')[3]).toHaveTextContent('2');
    expect(within(rows[0]!).getByText('test.ping')).toBeInTheDocument();
    expect(within(rows[4]!).getByText('timed out after 10000 ms')).toBeInTheDocument();
    expect(within(rows[4]!).getByText('Retry scheduled')).toBeInTheDocument();
    for (const name of ['Event', 'URL', 'Status', 'Retries', 'Response time', 'Time', 'Verification']) {
      expect(screen.getByRole('columnheader', { name })).toBeInTheDocument();
    }
  });

  it(`refetches the delivery log every ${LOG_REFETCH_MS / 1000} s while it is shown`, async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = fakeServer({ hooks: [HOOK], logs: [] });
    const view = renderSection();
    await screen.findByText('No deliveries yet');
    const logCalls = () => calls.filter((c) => c.url === '/api/webhooks/logs?mode=live').length;
    expect(logCalls()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(LOG_REFETCH_MS + 50));
    await waitFor(() => expect(logCalls()).toBe(2));
    await act(() => vi.advanceTimersByTimeAsync(LOG_REFETCH_MS + 50));
    await waitFor(() => expect(logCalls()).toBe(3));
    expect(LOG_REFETCH_MS).toBeGreaterThanOrEqual(5_000);
    expect(LOG_REFETCH_MS).toBeLessThanOrEqual(10_000);
    // Closed: no more polling.
    view.unmount();
    await act(() => vi.advanceTimersByTimeAsync(LOG_REFETCH_MS * 3));
    expect(logCalls()).toBe(3);
  });

  describe('create', () => {
    it('refuses an empty URL or no event with the SPEC validation toast, without calling the server', async () => {
      const user = userEvent.setup();
      const { calls } = fakeServer({ hooks: [], logs: [] });
      renderSection();
      await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add a webhook' });

      await user.click(within(dialog).getByRole('button', { name: 'Create webhook' }));
      await expectToast('Validation Error', 'Please provide a URL and select at least one event.');

      resetToasts();
      await user.type(within(dialog).getByLabelText('Endpoint URL'), 'https://example.com/hooks');
      await user.click(within(dialog).getByRole('button', { name: 'Create webhook' }));
      await expectToast('Validation Error', 'Please provide a URL and select at least one event.');

      resetToasts();
      await user.clear(within(dialog).getByLabelText('Endpoint URL'));
      await user.type(within(dialog).getByLabelText('Endpoint URL'), '   ');
      await user.click(within(dialog).getByLabelText('credit.low'));
      await user.click(within(dialog).getByRole('button', { name: 'Create webhook' }));
      await expectToast('Validation Error', 'Please provide a URL and select at least one event.');

      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    });

    it('creates, says "Webhook created", and shows the secret once with a copy button', async () => {
      const user = userEvent.setup();
      const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
      const state = { hooks: [] as Webhook[], logs: [] };
      const { calls } = fakeServer(state, (call) => {
        if (call.method === 'POST' && call.url === '/api/webhooks') {
          const created = { ...HOOK, url: (call.body as { url: string }).url, events: (call.body as { events: string[] }).events };
          state.hooks = [created];
          return jsonResponse(201, { ...created, secret });
        }
        return undefined;
      });
      renderSection();
      await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
      let dialog = await screen.findByRole('dialog', { name: 'Add a webhook' });
      await user.type(within(dialog).getByLabelText('Endpoint URL'), '  https://example.com/hooks ');
      await user.type(within(dialog).getByLabelText(/Description/), ' Production login ');
      await user.click(within(dialog).getByLabelText('credit.low'));
      await user.click(within(dialog).getByLabelText('verification.success'));
      await user.click(within(dialog).getByRole('button', { name: 'Create webhook' }));

      await expectToast('Webhook created');
      const post = calls.find((c) => c.method === 'POST')!;
      // Trimmed, in the catalogue's order, and no secret sent when left empty (the server makes one).
      expect(post.body).toEqual({
        url: 'https://example.com/hooks',
        events: ['verification.success', 'credit.low'],
        description: 'Production login',
        livemode: true,
      });

      dialog = await screen.findByRole('dialog', { name: 'Webhook created' });
      expect(within(dialog).getByText(secret)).toBeInTheDocument();
      expect(within(dialog).getByText(/won.t be shown again/)).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Copy signing secret' }));
      expect(await navigator.clipboard.readText()).toBe(secret);
      await expectToast('Copied!');
      expect(within(dialog).getByRole('button', { name: 'Copy signing secret: copied' })).toBeInTheDocument();

      // The list now shows the webhook, and never the secret.
      await user.click(within(dialog).getByRole('button', { name: /saved it/ }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(screen.queryByText(secret)).toBeNull();
      expect(await screen.findByTestId('webhook-row')).toHaveTextContent('https://example.com/hooks');

      // Opening the dialog again starts a fresh form; the secret is gone for good.
      await user.click(screen.getByRole('button', { name: 'Add webhook' }));
      dialog = await screen.findByRole('dialog', { name: 'Add a webhook' });
      expect(within(dialog).getByLabelText('Endpoint URL')).toHaveValue('');
      expect(screen.queryByText(secret)).toBeNull();
    });

    it('sends a secret the business typed', async () => {
      const user = userEvent.setup();
      const mine = 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
      const { calls } = fakeServer({ hooks: [], logs: [] }, (call) =>
        call.method === 'POST' ? jsonResponse(201, { ...HOOK, secret: mine }) : undefined,
      );
      renderSection();
      await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
      const dialog = await screen.findByRole('dialog');
      await user.type(within(dialog).getByLabelText('Endpoint URL'), 'https://example.com/hooks');
      await user.click(within(dialog).getByLabelText('credit.depleted'));
      await user.type(within(dialog).getByLabelText(/Signing secret/), mine);
      await user.click(within(dialog).getByRole('button', { name: 'Create webhook' }));
      await screen.findByRole('dialog', { name: 'Webhook created' });
      expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ url: 'https://example.com/hooks', events: ['credit.depleted'], secret: mine, livemode: true });
    });

    it("shows the server's message in an Error toast and keeps the form", async () => {
      const user = userEvent.setup();
      fakeServer({ hooks: [], logs: [] }, (call) =>
        call.method === 'POST'
          ? jsonResponse(400, { error: { code: 'validation_failed', message: 'The URL points at a private or local address.', request_id: 'r1' } })
          : undefined,
      );
      renderSection();
      await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add a webhook' });
      await user.type(within(dialog).getByLabelText('Endpoint URL'), 'http://127.0.0.1/hooks');
      await user.click(within(dialog).getByLabelText('credit.low'));
      await user.click(within(dialog).getByRole('button', { name: 'Create webhook' }));
      await expectToast('Error', 'The URL points at a private or local address.');
      expect(screen.getByRole('dialog', { name: 'Add a webhook' })).toBeInTheDocument();
      expect(within(dialog).getByLabelText('Endpoint URL')).toHaveValue('http://127.0.0.1/hooks');
    });

    it('falls back to "Failed to create webhook" when the server sends no message', async () => {
      const user = userEvent.setup();
      fakeServer({ hooks: [], logs: [] }, (call) => (call.method === 'POST' ? new Response('Bad Gateway', { status: 502 }) : undefined));
      renderSection();
      await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
      const dialog = await screen.findByRole('dialog');
      await user.type(within(dialog).getByLabelText('Endpoint URL'), 'https://example.com/hooks');
      await user.click(within(dialog).getByLabelText('credit.low'));
      await user.click(within(dialog).getByRole('button', { name: 'Create webhook' }));
      await expectToast('Error', 'Failed to create webhook');
    });
  });

  it('toggles a webhook and says "Webhook status updated"', async () => {
    const user = userEvent.setup();
    const state = { hooks: [HOOK], logs: [] };
    const { calls } = fakeServer(state, (call) => {
      if (call.method === 'PATCH') {
        state.hooks = [{ ...HOOK, isActive: (call.body as { isActive: boolean }).isActive }];
        return jsonResponse(200, state.hooks[0]);
      }
      return undefined;
    });
    renderSection();
    const toggle = await screen.findByRole('switch', { name: `Active: ${HOOK.url}` });
    await user.click(toggle);
    await expectToast('Webhook status updated');
    expect(calls.find((c) => c.method === 'PATCH')).toEqual({ method: 'PATCH', url: '/api/webhooks/wh_1/toggle', body: { isActive: false } });
    await waitFor(() => expect(screen.getByRole('switch', { name: `Active: ${HOOK.url}` })).not.toBeChecked());
  });

  it('toggle failure says "Error" with the fallback', async () => {
    const user = userEvent.setup();
    fakeServer({ hooks: [HOOK], logs: [] }, (call) => (call.method === 'PATCH' ? new Response('', { status: 500 }) : undefined));
    renderSection();
    await user.click(await screen.findByRole('switch'));
    await expectToast('Error', 'Failed to update webhook');
  });

  it('deletes after confirmation and says "Webhook deleted"', async () => {
    const user = userEvent.setup();
    const state = { hooks: [HOOK], logs: [] };
    const { calls } = fakeServer(state, (call) => {
      if (call.method === 'DELETE') {
        state.hooks = [];
        return new Response(null, { status: 204 });
      }
      return undefined;
    });
    renderSection();
    await user.click(await screen.findByRole('button', { name: `Delete ${HOOK.url}` }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this webhook?' });
    // Cancel first: nothing happens.
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: `Delete ${HOOK.url}` }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete webhook' }));
    await expectToast('Webhook deleted');
    expect(calls.find((c) => c.method === 'DELETE')!.url).toBe('/api/webhooks/wh_1');
    expect(await screen.findByText('No webhooks yet')).toBeInTheDocument();
  });

  it('sends a test event, and shows the server message when it is refused', async () => {
    const user = userEvent.setup();
    let refuse = false;
    const { calls } = fakeServer({ hooks: [HOOK], logs: [] }, (call) => {
      if (call.method === 'POST' && call.url.endsWith('/test')) {
        return refuse
          ? jsonResponse(409, { error: { code: 'conflict', message: 'Turn the webhook on before sending a test event.', request_id: 'r' } })
          : jsonResponse(202, { queued: true });
      }
      return undefined;
    });
    renderSection();
    await user.click(await screen.findByRole('button', { name: `Send test event to ${HOOK.url}` }));
    await expectToast('Test event sent');
    expect(calls.filter((c) => c.url === '/api/webhooks/wh_1/test')).toHaveLength(1);
    refuse = true;
    await user.click(screen.getByRole('button', { name: `Send test event to ${HOOK.url}` }));
    await expectToast('Error', 'Turn the webhook on before sending a test event.');
  });

  it('marks an endpoint switched off after a day of failures (badge, reason, when), and the switch turns it back on', async () => {
    const user = userEvent.setup();
    const reason = 'Every delivery failed for 24 h (since 2026-11-20 10:00 UTC; last: HTTP 500).';
    const off: Webhook = { ...HOOK, isActive: false, disabledReason: reason, disabledAt: '2026-11-21T10:01:00.000Z' };
    const state = { hooks: [off], logs: [] };
    const { calls } = fakeServer(state, (call) => {
      if (call.method === 'PATCH') {
        state.hooks = [{ ...HOOK, isActive: true }];
        return jsonResponse(200, state.hooks[0]);
      }
      return undefined;
    });
    renderSection();
    const row = (await screen.findAllByTestId('webhook-row'))[0]!;
    expect(within(row).getByTestId('switched-off-badge')).toHaveTextContent('Switched off');
    expect(within(row).getByRole('note')).toHaveTextContent(/Switched off automatically on .*2026.*Every delivery failed for 24 h/);
    await user.click(within(row).getByRole('switch', { name: `Active: ${HOOK.url}` }));
    await expectToast('Webhook status updated');
    expect(calls.find((c) => c.method === 'PATCH')).toEqual({ method: 'PATCH', url: '/api/webhooks/wh_1/toggle', body: { isActive: true } });
    await waitFor(() => expect(screen.queryByTestId('switched-off-badge')).toBeNull());
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('resends a finished delivery from its latest attempt row, not a queued one, and not to an endpoint that is off', async () => {
    const user = userEvent.setup();
    const done = log({ deliveryId: 'msg_done', responseStatus: 500, deliveryStatus: 'exhausted', attemptNumber: 4, retryCount: 3, createdAt: '2026-11-21T10:00:09.000Z' });
    const earlier = log({ deliveryId: 'msg_done', responseStatus: 500, deliveryStatus: 'exhausted', attemptNumber: 3, retryCount: 2, createdAt: '2026-11-21T10:00:05.000Z' });
    const queued = log({ deliveryId: 'msg_queued', responseStatus: null, attemptNumber: 0, deliveryStatus: 'pending', createdAt: '2026-11-21T10:00:10.000Z' });
    const otherHook = log({ deliveryId: 'msg_off', webhookId: 'wh_off', webhookUrl: 'https://off.example/h', deliveryStatus: 'succeeded', createdAt: '2026-11-21T10:00:01.000Z' });
    const { calls } = fakeServer({ hooks: [HOOK, { ...HOOK, id: 'wh_off', url: 'https://off.example/h', isActive: false }], logs: [done, earlier, queued, otherHook] }, (call) =>
      call.method === 'POST' && call.url.endsWith('/resend') ? jsonResponse(202, { queued: true, deliveryId: 'msg_done', webhookId: HOOK.id }) : undefined,
    );
    renderSection();
    const rows = await screen.findAllByTestId('delivery-row');
    expect(rows).toHaveLength(4);
    const buttons = screen.getAllByRole('button', { name: /^Resend / });
    // One per finished delivery (its latest attempt): not the older attempt, not the queued one.
    expect(buttons).toHaveLength(2);
    expect(within(rows[1]!).getByRole('button', { name: `Resend ${done.event} to ${HOOK.url}` })).toBeEnabled();
    expect(within(rows[3]!).getByRole('button', { name: /^Resend / })).toBeDisabled();
    await user.click(within(rows[1]!).getByRole('button', { name: /^Resend / }));
    await expectToast('Delivery queued again');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', url: '/api/webhooks/logs/msg_done/resend', body: undefined }]);
  });
});
