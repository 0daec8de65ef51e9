import { describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import { newId, newTimeOrderedId, randomBase62 } from './ids';

describe('ids', () => {
  it('makes prefixed base62 ids of fixed length', () => {
    expect(newId('biz')).toMatch(/^biz_[0-9A-Za-z]{20}$/);
    expect(randomBase62(32)).toMatch(/^[0-9A-Za-z]{32}$/);
  });

  it('does not repeat in 10,000 draws', () => {
    const seen = new Set(Array.from({ length: 10_000 }, () => newId('x')));
    expect(seen.size).toBe(10_000);
  });

  it('makes time-ordered ids of the same shape that sort by creation time, then at random', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-25T10:00:00.000Z'));
      const earlier = Array.from({ length: 100 }, () => newTimeOrderedId('ver'));
      vi.setSystemTime(new Date('2026-11-25T10:00:00.001Z'));
      const later = newTimeOrderedId('ver');
      for (const id of earlier) {
        expect(id).toMatch(/^ver_[0-9A-Za-z]{20}$/);
        expect(id.slice(0, 12)).toBe(earlier[0]!.slice(0, 12));
        // Byte order (SQLite's, and any C collation): the next millisecond sorts after.
        expect(Buffer.compare(Buffer.from(id), Buffer.from(later))).toBe(-1);
      }
      expect(new Set(earlier).size).toBe(100);
    } finally {
      vi.useRealTimers();
    }
  });
});
