import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api';
import { createQueryClient, retryDelay, shouldRetry } from './query-client';

describe('query defaults (SPEC §7)', () => {
  it('backs off from 1000 ms, doubling, capped at 30000 ms', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it('retries failed queries 3 times, but never a 401', () => {
    const serverError = new ApiError(500, 'oops');
    expect([0, 1, 2, 3].map((n) => shouldRetry(n, serverError))).toEqual([true, true, true, false]);
    expect(shouldRetry(0, new ApiError(401, 'signed out'))).toBe(false);
  });

  it('keeps unused data 5 minutes and does not retry mutations', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries?.gcTime).toBe(5 * 60 * 1000);
    expect(defaults.mutations?.retry).toBe(false);
  });
});
