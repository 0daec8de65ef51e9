import { describe, expect, it } from 'vitest';
import { resolveVariant } from './variant';

describe('resolveVariant', () => {
  it('follows the meta tag the server writes', () => {
    expect(resolveVariant('enterprise', 'sixdigit.example', false)).toBe('enterprise');
    expect(resolveVariant('main', 'sixdigit.example', false)).toBe('main');
  });

  it('uses the host name only in development, where the meta tag is never rewritten', () => {
    expect(resolveVariant('main', 'enterprise.localhost', true)).toBe('enterprise');
    expect(resolveVariant('main', 'enterprise.localhost', false)).toBe('main');
    expect(resolveVariant(null, 'localhost', true)).toBe('main');
  });
});
