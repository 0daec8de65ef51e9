import { describe, expect, it } from 'vitest';
import { fromJson, toBoolean, toDate, toNumber } from './normalize';

describe('normalize: the values the two engines return differently', () => {
  it('reads counts and bigints as numbers', () => {
    expect(toNumber('42')).toBe(42);
    expect(toNumber(42)).toBe(42);
    expect(toNumber(42n)).toBe(42);
    expect(toNumber(null)).toBe(0);
  });

  it('reads timestamps from Date and ISO text alike', () => {
    const iso = '2026-11-21T10:00:00.000Z';
    expect(toDate(iso).toISOString()).toBe(iso);
    expect(toDate(new Date(iso)).toISOString()).toBe(iso);
    expect(() => toDate('yesterday')).toThrow();
  });

  it('reads booleans from 1/0 and true/false', () => {
    expect([toBoolean(1), toBoolean(0), toBoolean(true), toBoolean(false)]).toEqual([true, false, true, false]);
  });

  it('reads JSON from objects and text', () => {
    expect(fromJson('{"a":1}')).toEqual({ a: 1 });
    expect(fromJson({ a: 1 })).toEqual({ a: 1 });
  });
});
