import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isPrivateAddress } from './url-guard';

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  responseTimeMs: number;
}

export type WebhookSender = (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>;

/**
 * POSTs one webhook: a hard deadline for the whole exchange, no redirects followed (a 3xx is
 * simply not a 2xx), at most 64 KiB of the answer read, and — unless private targets are
 * allowed — a DNS lookup that refuses private addresses at connect time, so a name that
 * re-resolves to 127.0.0.1 after it was saved is still refused.
 */
export function createSender(options: { timeoutMs: number; allowPrivate: boolean }): WebhookSender {
  const guardedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as unknown as LookupAddress[];
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (bad && !options.allowPrivate) {
        return callback(Object.assign(new Error(`refused: ${hostname} resolves to a private address`), { code: 'EPRIVATE' }), '', 4);
      }
      if ((lookupOptions as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };

  return (rawUrl, headers, body) =>
    new Promise<SendResult>((resolve) => {
      const started = performance.now();
      const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
      let settled = false;
      // Declared before finish() can run: the early refusals below settle before the timer exists.
      let deadline: NodeJS.Timeout | undefined = undefined;
      const finish = (result: Omit<SendResult, 'responseTimeMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve({ ...result, responseTimeMs: elapsed() });
      };
      let url: URL;
      try {
        url = new URL(rawUrl);
      } catch {
        return finish({ statusCode: null, error: 'invalid URL' });
      }
      if (!options.allowPrivate && isLiteralPrivate(url.hostname)) {
        return finish({ statusCode: null, error: 'refused: private address' });
      }
      const client = url.protocol === 'https:' ? https : http;
      const request = client.request(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Sixdigit-Webhooks/1.0' },
        lookup: guardedLookup,
        agent: false,
      });
      deadline = setTimeout(() => {
        request.destroy(new Error(`timed out after ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      request.on('response', (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > 65_536) response.destroy();
        });
        response.on('end', () => finish({ statusCode: response.statusCode ?? null, error: null }));
        response.on('close', () => finish({ statusCode: response.statusCode ?? null, error: null }));
        response.on('error', () => finish({ statusCode: response.statusCode ?? null, error: null }));
      });
      request.on('error', (err) => finish({ statusCode: null, error: err.message }));
      request.end(body);
    });
}

function isLiteralPrivate(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return /^[\d.]+$/.test(host) || host.includes(':') ? isPrivateAddress(host) : false;
}
