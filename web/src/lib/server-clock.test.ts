import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiGet } from './api';
import {
  CLOCK_SKEW_THRESHOLD_MS,
  estimateOffset,
  getClockSkew,
  recordServerDate,
  resetServerClock,
  serverNow,
  useClockSkew,
} from './server-clock';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0); // a whole second

afterEach(() => {
  resetServerClock();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('estimateOffset', () => {
  it('takes the middle of the request and of the header second', () => {
    const header = new Date(T0).toUTCString();
    // Request took 200 ms and the device is exactly on time: the estimate is within ±600 ms.
    expect(estimateOffset(header, T0 + 100, T0 + 300)).toBe(300);
    // Device 20 s behind.
    expect(estimateOffset(header, T0 - 20_000, T0 - 19_800)).toBe(20_400);
  });

  it('ignores a missing or unreadable header and a slow round trip', () => {
    expect(estimateOffset(null, T0, T0 + 10)).toBeNull();
    expect(estimateOffset('yesterday-ish', T0, T0 + 10)).toBeNull();
    expect(estimateOffset(new Date(T0).toUTCString(), T0, T0 + 30_000)).toBeNull();
    expect(estimateOffset(new Date(T0).toUTCString(), T0 + 10, T0)).toBeNull();
  });
});

describe('recordServerDate', () => {
  it('leaves offsets of 15 s or less alone', () => {
    const header = new Date(T0).toUTCString();
    recordServerDate(header, T0 - 14_000, T0 - 13_900); // device ~14.5 s behind
    expect(getClockSkew()).toEqual({ offsetMs: 0, corrected: false });
    recordServerDate(header, T0 + 15_000, T0 + 15_900); // device ~14.95 s ahead
    expect(getClockSkew()).toEqual({ offsetMs: 0, corrected: false });
  });

  it('corrects a device clock more than 15 s off, in either direction', () => {
    const header = new Date(T0).toUTCString();
    recordServerDate(header, T0 - 60_000, T0 - 59_800); // device a minute behind
    expect(getClockSkew().corrected).toBe(true);
    expect(Math.abs(getClockSkew().offsetMs - 60_000)).toBeLessThanOrEqual(1_000);

    recordServerDate(header, T0 + 90_000, T0 + 90_100); // device 90 s ahead
    expect(getClockSkew().corrected).toBe(true);
    expect(Math.abs(getClockSkew().offsetMs + 90_000)).toBeLessThanOrEqual(1_000);
    expect(CLOCK_SKEW_THRESHOLD_MS).toBe(15_000);
  });

  it('drops the correction once the clocks agree again', () => {
    const header = new Date(T0).toUTCString();
    recordServerDate(header, T0 - 60_000, T0 - 59_800);
    expect(getClockSkew().corrected).toBe(true);
    recordServerDate(header, T0, T0 + 50);
    expect(getClockSkew()).toEqual({ offsetMs: 0, corrected: false });
  });

  it('serverNow adds the offset to the device clock', () => {
    vi.useFakeTimers({ now: T0 - 120_000, toFake: ['Date'] });
    recordServerDate(new Date(T0).toUTCString(), Date.now(), Date.now() + 100);
    expect(Math.abs(serverNow() - T0)).toBeLessThanOrEqual(1_000);
  });

  it('keeps the correction for an app that starts offline', () => {
    recordServerDate(new Date(T0).toUTCString(), T0 - 60_000, T0 - 59_800);
    expect(Number(localStorage.getItem('sixdigit.clockOffset'))).toBe(getClockSkew().offsetMs);
    resetServerClock();
    expect(localStorage.getItem('sixdigit.clockOffset')).toBeNull();
  });
});

describe('useClockSkew', () => {
  it('re-renders when the offset changes', () => {
    const { result } = renderHook(() => useClockSkew());
    expect(result.current).toEqual({ offsetMs: 0, corrected: false });
    act(() => recordServerDate(new Date(T0).toUTCString(), T0 - 30_000, T0 - 29_900));
    expect(result.current.corrected).toBe(true);
    expect(result.current.offsetMs).toBeGreaterThan(29_000);
  });
});

describe('the API wrapper', () => {
  it('passes every response Date header to the clock', async () => {
    // The server answers 40 s ahead of this device.
    const serverTime = new Date(Math.floor((Date.now() + 40_000) / 1000) * 1000).toUTCString();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 200, headers: { date: serverTime } })),
    );
    await apiGet('/api/anything');
    expect(getClockSkew().corrected).toBe(true);
    expect(Math.abs(getClockSkew().offsetMs - 40_000)).toBeLessThanOrEqual(1_500);
  });

  it('also learns from error responses', async () => {
    const serverTime = new Date(Math.floor((Date.now() - 40_000) / 1000) * 1000).toUTCString();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('nope', { status: 500, headers: { date: serverTime } })),
    );
    await expect(apiGet('/api/anything')).rejects.toThrow('500: nope');
    expect(getClockSkew().corrected).toBe(true);
    expect(getClockSkew().offsetMs).toBeLessThan(-38_000);
  });
});
