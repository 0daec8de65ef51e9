import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { signInLocally, useE2E, visit } from '../support/harness';
import { expectNoSeriousA11yViolations } from '../support/axe';

const h = useE2E('business/webhooks');

/** The business's own endpoint: a real HTTP server on loopback that records what arrives. */
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    received.push({ headers: req.headers, body });
    res.writeHead(200).end('ok');
  });
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

describe('webhooks on the business dashboard', () => {
  it('creates a webhook, sends a signed test event to a real receiver and sees Success in the log', async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sixdigit/events`;
    const page = await h.newPage({ width: 1280 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.baseUrl });

    await visit(page, '/api/login?returnTo=%2Fbusiness');
    await signInLocally(page, 'dev@hooks.example', 'Dev Hooks');
    await page.getByLabel('Company Name').fill('Hooks & Co');
    await page.getByRole('button', { name: 'Create Business Account' }).click();
    await page.getByTestId('api-key-reveal').waitFor();

    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Endpoint URL').fill(hookUrl);
    await dialog.getByLabel('verification.success').check();
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await dialog.getByRole('button', { name: 'Copy signing secret' }).click();
    await dialog.getByRole('button', { name: 'Copy signing secret: copied' }).waitFor();
    const secret = await page.evaluate(() => navigator.clipboard.readText());
    expect(secret).toMatch(/^whsec_/);
    await h.screenshot(page, '1-secret-shown-once');
    await dialog.getByRole('button', { name: /saved it/ }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: `Send test event to ${hookUrl}` }).click();
    const log = page.getByRole('region', { name: 'Delivery log table' });
    await log.getByText('Success').waitFor({ timeout: 15_000 });
    await h.screenshot(page, '2-log-success');
    await expectNoSeriousA11yViolations(page, { label: '2-log-success' });

    expect(received).toHaveLength(1);
    const [delivery] = received;
    const event = new Webhook(secret).verify(delivery!.body, {
      'webhook-id': delivery!.headers['webhook-id'] as string,
      'webhook-timestamp': delivery!.headers['webhook-timestamp'] as string,
      'webhook-signature': delivery!.headers['webhook-signature'] as string,
    }) as { event: string };
    expect(event.event).toBe('test.ping');
    expect(delivery!.headers['x-sixdigit-event']).toBe('test.ping');
    expect(h.pageErrors(page)).toEqual([]);
  });
});
