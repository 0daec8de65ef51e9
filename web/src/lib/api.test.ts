import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiGet, apiSend, errorMessage, isUnauthorized } from './api';

afterEach(() => vi.unstubAllGlobals());

describe('ApiError', () => {
  it('has the message "<status>: <raw response text>" and carries the parsed envelope', () => {
    const raw = '{"error":{"code":"insufficient_credits","message":"Top up to continue.","request_id":"req_1"}}';
    const error = new ApiError(402, raw);
    expect(error.message).toBe(`402: ${raw}`);
    expect(error.status).toBe(402);
    expect(error.body).toBe(raw);
    expect(error.envelope).toEqual({
      error: { code: 'insufficient_credits', message: 'Top up to continue.', request_id: 'req_1' },
    });
    expect(error.code).toBe('insufficient_credits');
    expect(error.serverMessage).toBe('Top up to continue.');
    expect(error.requestId).toBe('req_1');
  });

  it('has no envelope when the body is not one', () => {
    expect(new ApiError(502, 'Bad Gateway').envelope).toBeUndefined();
    expect(new ApiError(400, '{"message":"x"}').envelope).toBeUndefined();
  });
});

describe('isUnauthorized', () => {
  it('matches errors whose message starts with "401: "', () => {
    expect(isUnauthorized(new ApiError(401, 'nope'))).toBe(true);
    expect(isUnauthorized(new Error('401: Unauthorized'))).toBe(true);
    expect(isUnauthorized(new ApiError(403, 'forbidden'))).toBe(false);
    expect(isUnauthorized(new Error('4011: odd'))).toBe(false);
    expect(isUnauthorized('401: a string')).toBe(false);
  });
});

describe('errorMessage', () => {
  it("prefers the server's message, else the fallback", () => {
    const withEnvelope = new ApiError(409, '{"error":{"code":"conflict","message":"Already exists.","request_id":"r"}}');
    expect(errorMessage(withEnvelope, 'Failed')).toBe('Already exists.');
    expect(errorMessage(new Error('boom'), 'Failed')).toBe('Failed');
  });
});

describe('requests', () => {
  it('GETs JSON with cookies and throws ApiError with the raw text on failure', async () => {
    const fetchMock = vi.fn(async () => new Response('{"ok":true}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiGet('/api/thing')).resolves.toEqual({ ok: true });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.credentials).toBe('include');
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();

    fetchMock.mockResolvedValueOnce(new Response('Service down', { status: 503 }));
    await expect(apiGet('/api/thing')).rejects.toThrow(/^503: Service down$/);
  });

  it('uses the status text when the error body is empty', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { status: 500, statusText: 'Internal Server Error' })));
    await expect(apiGet('/api/thing')).rejects.toThrow('500: Internal Server Error');
  });

  it('sends a payload as JSON with a JSON content type, and returns undefined for 204', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiSend('POST', '/api/things', { name: 'x' })).resolves.toBeUndefined();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/things');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"name":"x"}');
    expect(new Headers(init.headers).get('content-type')).toBe('application/json');
  });

  it('sends FormData as multipart, without forcing a content type', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const form = new FormData();
    form.append('qr-image', new Blob(['x']), 'qr.png');
    await apiSend('POST', '/api/user/scan-qr', form);
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBe(form);
    expect(new Headers(init.headers).has('content-type')).toBe(false);
  });
});
