import { describe, expect, it } from 'vitest';
import { isWellFormedHost } from './http';

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
