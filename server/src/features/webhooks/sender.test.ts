import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../../../test/support/webhooks';
import { createSender } from './sender';

/** The sender on its own (no database, so it runs once, not per engine), against real sockets. */
describe('webhook sender', () => {
  const receivers: Receiver[] = [];
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  it('the server process delivers with the 10 s deadline of DESIGN.md §6', () => {
    const main = readFileSync(new URL('../../main.ts', import.meta.url), 'utf8');
    expect(main).toMatch(/new WebhookWorker\(ctx, \{ sender: createSender\(\{ timeoutMs: 10_000, allowPrivate: config\.webhookAllowPrivate \}\)/);
  });

  it('cuts a receiver that never answers at the deadline and says it timed out', async () => {
    const hang = await receiver(() => 'hang');
    const send = createSender({ timeoutMs: 300, allowPrivate: true });
    const started = performance.now();
    const result = await send(hang.url, {}, '{"event":"x"}');
    const wall = performance.now() - started;
    expect(hang.received).toHaveLength(1);
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/timed out after 300 ms/);
    expect(result.responseTimeMs).toBeGreaterThanOrEqual(299);
    expect(result.responseTimeMs).toBeLessThan(450);
    expect(wall).toBeLessThan(500);
  });

  it('also cuts a receiver that sends 200 headers and then stalls the body: not a success', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-length': '100' });
        res.write('partial');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as import('node:net').AddressInfo;
      const result = await createSender({ timeoutMs: 200, allowPrivate: true })(`http://127.0.0.1:${port}/`, {}, '{}');
      expect(result).toMatchObject({ statusCode: null, error: expect.stringMatching(/timed out/) });
      expect(result.responseTimeMs).toBeGreaterThanOrEqual(199);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('follows no redirect: a 302 is the answer, and its Location is never called', async () => {
    const target = await receiver(() => 200);
    const redirecting = await receiver(() => ({ status: 302, headers: { location: target.url } }));
    const result = await createSender({ timeoutMs: 2_000, allowPrivate: true })(redirecting.url, { 'webhook-id': 'msg_1' }, '{}');
    expect(result).toMatchObject({ statusCode: 302, error: null });
    expect(redirecting.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
  });

  it('sends the body, the signature headers, JSON content type and a user agent', async () => {
    const r = await receiver(() => 204);
    const body = JSON.stringify({ event: 'test.ping', data: { a: 'é' } });
    const result = await createSender({ timeoutMs: 2_000, allowPrivate: true })(
      r.url,
      { 'webhook-id': 'msg_x', 'webhook-timestamp': '1', 'webhook-signature': 'v1,abc', 'x-sixdigit-event': 'test.ping' },
      body,
    );
    expect(result).toMatchObject({ statusCode: 204, error: null });
    expect(r.received[0]!.body).toBe(body);
    expect(r.received[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': 'msg_x',
      'x-sixdigit-event': 'test.ping',
      'user-agent': expect.stringMatching(/^Sixdigit-Webhooks\//),
    });
  });

  describe('with private targets refused (production)', () => {
    const send = createSender({ timeoutMs: 1_000, allowPrivate: false });

    it('refuses a host name that resolves to a private address, at connect time', async () => {
      const r = await receiver(() => 200);
      const port = new URL(r.url).port;
      // "localhost" is a name, so the URL check cannot know; only the connect-time lookup can.
      const result = await send(`http://localhost:${port}/hooks`, {}, '{}');
      expect(result.statusCode).toBeNull();
      expect(result.error).toMatch(/refused: localhost resolves to a private address/);
      expect(r.received).toHaveLength(0);
    });

    it.each(['127.0.0.1', '[::1]', '10.1.2.3', '169.254.169.254', '192.168.0.10', '[::ffff:127.0.0.1]', '0.0.0.0'])(
      'refuses the private address literal %s without connecting (and resolves, never throws)',
      async (host) => {
        const r = await receiver(() => 200);
        const port = host === '127.0.0.1' ? new URL(r.url).port : '80';
        const result = await send(`http://${host}:${port}/hooks`, {}, '{}');
        expect(result).toMatchObject({ statusCode: null, error: expect.stringMatching(/refused/) });
        expect(result.responseTimeMs).toBeLessThan(50);
        expect(r.received).toHaveLength(0);
      },
    );

    it('answers an error for a URL it cannot parse instead of throwing', async () => {
      await expect(send('not a url', {}, '{}')).resolves.toMatchObject({ statusCode: null, error: 'invalid URL' });
    });
  });
});
