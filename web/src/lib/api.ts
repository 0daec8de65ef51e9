/**
 * The one way the web app talks to its own server (SPEC §7): cookies are sent, JSON in and out,
 * and any non-2xx answer throws an `ApiError` whose message is `<status>: <raw response text>`.
 */
import { recordServerDate } from './server-clock';

/** The error body every server error leaves in: `{ error: { code, message, request_id } }`. */
export interface ErrorEnvelope {
  error: { code: string; message: string; request_id: string };
}

function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status code. */
  readonly status: number;
  /** The raw response text (or the status text when the body was empty). */
  readonly body: string;
  /** The parsed server error envelope, when the body was one. */
  readonly envelope: ErrorEnvelope | undefined;

  constructor(status: number, body: string) {
    super(`${status}: ${body}`);
    this.status = status;
    this.body = body;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    this.envelope = isErrorEnvelope(parsed) ? parsed : undefined;
  }

  /** The server's machine-readable error code, e.g. `unauthorized`, `insufficient_credits`. */
  get code(): string | undefined {
    return this.envelope?.error.code;
  }

  /** The server's human-readable message, if it sent an envelope. */
  get serverMessage(): string | undefined {
    return this.envelope?.error.message;
  }

  get requestId(): string | undefined {
    return this.envelope?.error.request_id;
  }
}

/** True for errors from a 401 answer (matched on the message, as SPEC §8 describes). */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof Error && /^401: /.test(error.message);
}

/** A message fit for a toast: the server's own message when it sent one, else `fallback`. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  return fallback;
}

/** Throws an ApiError for any non-2xx response. */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  throw new ApiError(res.status, text);
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Sends a request and returns the raw Response after checking its status.
 * A plain object payload is sent as JSON; FormData is sent as multipart.
 */
export async function apiRequest(
  method: HttpMethod,
  url: string,
  payload?: unknown,
  init: RequestInit = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  let body: BodyInit | undefined;
  if (payload instanceof FormData) {
    body = payload;
  } else if (payload !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(payload);
  }
  if (!headers.has('accept')) headers.set('accept', 'application/json');

  const sentAt = Date.now();
  const res = await fetch(url, { ...init, method, headers, body, credentials: 'include' });
  recordServerDate(res.headers.get('date'), sentAt, Date.now());
  await throwIfResNotOk(res);
  return res;
}

async function parseJson<T>(res: Response): Promise<T> {
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** GET a JSON resource. */
export async function apiGet<T>(url: string, init?: RequestInit): Promise<T> {
  return parseJson<T>(await apiRequest('GET', url, undefined, init));
}

/** Send a state-changing request and parse the JSON answer (undefined for 204). */
export async function apiSend<T = unknown>(
  method: Exclude<HttpMethod, 'GET'>,
  url: string,
  payload?: unknown,
  init?: RequestInit,
): Promise<T> {
  return parseJson<T>(await apiRequest(method, url, payload, init));
}
