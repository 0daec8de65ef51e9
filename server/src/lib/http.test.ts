import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { isWellFormedHost, refuseMalformedHost } from './http';

describe('isWellFormedHost: what a Host header may say', () => {
  it.each([
    'example.com',
    'EXAMPLE.com.',
    'example.com:8080',
    'enterprise.localhost:5000',
    'xn--bcher-kva.example',
    'my_host-1.internal',
    '127.0.0.1',
    '127.0.0.1:5000',
    '[::1]',
    '[::1]:5000',
    '[2001:db8::1]:443',
    '[::ffff:127.0.0.1]',
    'localhost',
  ])('accepts %j', (host) => {
    expect(isWellFormedHost(host)).toBe(true);
  });

  it.each([
    '',
    ' ',
    'enterprise.x y',
    'enterprise.x<y',
    'enterprise.x|y',
    'enterprise.x>y',
    'a"b',
    "a'b",
    'a\tb',
    'a/b',
    'a\\b',
    'a?b',
    'a#b',
    'a@b',
    'a%20b',
    'bücher.example',
    '💥.example',
    '[::1',
    '::1',
    '[zz::1]',
    '[::1]x',
    'example.com:',
    'example.com:99999',
    'example.com:80:80',
    '1.2.3.999',
    'a.com, b.com',
    'x'.repeat(300),
  ])('refuses %j', (host) => {
    expect(isWellFormedHost(host)).toBe(false);
  });
});

describe('refuseMalformedHost: the last Host that passed is remembered, nothing else', () => {
  const request = (host: string | undefined) => ({ host: host ?? '', headers: host === undefined ? {} : { host } }) as unknown as FastifyRequest;

  // First in this file: the memory starts empty, and an empty Host line must not pass as its value.
  it('refuses an empty Host line as the very first request, and one after a good Host', () => {
    expect(refuseMalformedHost(request(''))?.code).toBe('bad_request');
    expect(refuseMalformedHost(request('api.example.com'))).toBeNull();
    expect(refuseMalformedHost(request(''))?.code).toBe('bad_request');
  });

  it('refuses a bad Host right after a good one, and passes no Host at all (HTTP/1.0)', () => {
    expect(refuseMalformedHost(request('api.example.com'))).toBeNull();
    expect(refuseMalformedHost(request('api.example.com x'))?.code).toBe('bad_request');
    expect(refuseMalformedHost(request('api.example.com'))).toBeNull();
    expect(refuseMalformedHost(request(undefined))).toBeNull();
  });
});
