import { ConnectionError, errorFromResponse, SixdigitError } from './errors.js';

/**
 * One call to the API with the retry rules every Sixdigit SDK keeps:
 * - retried: no answer (network error, timeout), 429, and 5xx;
 * - waits: exponential backoff with jitter, or exactly what `Retry-After` says when the server says;
 * - a POST carries ONE `Idempotency-Key` (yours or a generated one) on every attempt, so a retry
 *   of a check that did reach the server is answered from the stored result, never billed twice.
 */

export interface RetryPolicy {
  /** Retries after the first attempt (default 3; 0 disables retrying). */
  maxRetries: number;
  /** First backoff step in ms (default 500); each retry doubles it. */
  initialDelayMs: number;
  /** Longest backoff in ms (default 8000). */
  maxDelayMs: number;
  /** A Retry-After longer than this (ms, default 60000) is not waited for: the error is thrown. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({ maxRetries: 3, initialDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 });

export interface Transport {
  baseUrl: string;
  apiKey: string;
  fetch: typeof fetch;
  timeoutMs: number;
  retry: RetryPolicy;
  userAgent: string;
  /** Waits (replaceable in tests). */
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export interface RequestOptions {
  /** Sent as Idempotency-Key on a POST instead of a generated one (e.g. your own operation id). */
  idempotencyKey?: string;
  /** Cancels the call, including any wait between retries. */
  signal?: AbortSignal;
}

export interface CallInput {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  options?: RequestOptions;
}

/** Seconds (RFC 9110 delay-seconds) or an HTTP date, as ms from now; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The wait before retry number `retry` (1-based): full backoff halved, plus up to as much again at random. */
export function backoffMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}

export function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

function sleepUnlessAborted(transport: Transport, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return transport.sleep(ms);
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    transport.sleep(ms).then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, reject);
  });
}

function buildUrl(baseUrl: string, path: string, query: CallInput['query']): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export interface CallResult<T> {
  body: T;
  status: number;
  headers: Headers;
}

export async function call<T>(transport: Transport, input: CallInput): Promise<CallResult<T>> {
  const { method, path, query, body, options = {} } = input;
  const url = buildUrl(transport.baseUrl, path, query);
  const headers: Record<string, string> = {
    authorization: `Bearer ${transport.apiKey}`,
    accept: 'application/json',
    'user-agent': transport.userAgent,
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  // One key for every attempt of this call: the server answers a retry from the stored result.
  if (method === 'POST') headers['idempotency-key'] = options.idempotencyKey ?? globalThis.crypto.randomUUID();
  const payload = body === undefined ? undefined : JSON.stringify(body);

  for (let attempt = 0; ; attempt++) {
    const canRetry = attempt < transport.retry.maxRetries;
    const timeout = AbortSignal.timeout(transport.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await transport.fetch(url, { method, headers, body: payload, signal });
    } catch (err) {
      // The caller's own abort is final; anything else (refused, reset, DNS, our timeout) is retried.
      if (options.signal?.aborted) throw abortError(options.signal);
      if (canRetry) {
        await sleepUnlessAborted(transport, backoffMs(attempt + 1, transport.retry, transport.random), options.signal);
        continue;
      }
      const timedOut = timeout.aborted;
      throw new ConnectionError({
        status: null,
        code: timedOut ? 'timeout' : 'connection_error',
        message: timedOut ? `No answer from ${url} within ${transport.timeoutMs} ms` : `Could not reach ${url}: ${(err as Error)?.message ?? String(err)}`,
        cause: err,
      });
    }

    if (response.ok) {
      const parsed = response.status === 204 ? null : await readJson(response);
      return { body: parsed as T, status: response.status, headers: response.headers };
    }
    const parsed = await readJson(response);
    if (canRetry && retryable(response.status)) {
      const asked = retryAfterMs(response.headers.get('retry-after'));
      if (asked === null || asked <= transport.retry.maxRetryAfterMs) {
        await sleepUnlessAborted(transport, asked ?? backoffMs(attempt + 1, transport.retry, transport.random), options.signal);
        continue;
      }
    }
    throw errorFromResponse(response.status, response.headers, parsed);
  }
}

export { SixdigitError };
