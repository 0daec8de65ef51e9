import { describe, expect, it } from 'vitest';
import { newId, randomBase62 } from './ids';

describe('ids', () => {
  it('makes prefixed base62 ids of fixed length', () => {
    expect(newId('biz')).toMatch(/^biz_[0-9A-Za-z]{20}$/);
    expect(randomBase62(32)).toMatch(/^[0-9A-Za-z]{32}$/);
  });

  it('does not repeat in 10,000 draws', () => {
    const seen = new Set(Array.from({ length: 10_000 }, () => newId('x')));
    expect(seen.size).toBe(10_000);
  });
});
