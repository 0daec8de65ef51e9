/**
 * The server's clock, as seen through the `Date` header of our own API responses.
 *
 * TOTP codes depend on the time, so a device whose clock is wrong shows wrong codes. Every
 * response from our server carries a `Date` header (whole seconds). From it and the request's
 * start and end times we estimate how far the device clock is off; when that is more than
 * 15 s we correct for it (issue 5, item 6), and the page says so. Smaller differences are left
 * alone: the header's 1-second resolution and the network make a precise estimate impossible,
 * and a code window is 30 s wide, verified with a window of ±1 step.
 *
 * The last correction is kept in localStorage, so an installed app that starts offline on a
 * device with a wrong clock still shows the right codes; the next online response replaces it.
 */
import { useSyncExternalStore } from 'react';

/** Offsets at or below this (in either direction) are not corrected. */
export const CLOCK_SKEW_THRESHOLD_MS = 15_000;
/** A sample whose round trip took longer than this says too little about the time. */
const MAX_ROUND_TRIP_MS = 10_000;
/** Estimates closer than this to the offset in use do not change it (no flicker). */
const MIN_CHANGE_MS = 1_000;
const STORAGE_KEY = 'sixdigit.clockOffset';

export interface ClockSkew {
  /** Milliseconds to add to the device clock to get the server's time; 0 when not corrected. */
  offsetMs: number;
  /** True when the device clock was more than 15 s off and the offset is applied. */
  corrected: boolean;
}

const UNCORRECTED: ClockSkew = { offsetMs: 0, corrected: false };

let current: ClockSkew = readStored();
const listeners = new Set<() => void>();

function readStored(): ClockSkew {
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (!raw) return UNCORRECTED;
    const offsetMs = Number(JSON.parse(raw));
    return Number.isFinite(offsetMs) && Math.abs(offsetMs) > CLOCK_SKEW_THRESHOLD_MS
      ? { offsetMs, corrected: true }
      : UNCORRECTED;
  } catch {
    return UNCORRECTED;
  }
}

function store(next: ClockSkew): void {
  try {
    if (next.corrected) globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(next.offsetMs));
    else globalThis.localStorage?.removeItem(STORAGE_KEY);
  } catch {
    // Storage may be unavailable (private mode, quota); the in-memory offset still applies.
  }
}

function set(next: ClockSkew): void {
  if (next.offsetMs === current.offsetMs && next.corrected === current.corrected) return;
  current = next;
  store(next);
  for (const listener of listeners) listener();
}

/**
 * Estimates the device clock's offset from one response.
 *
 * The server stamped `Date` somewhere between `sentAt` and `receivedAt` (device times, ms),
 * truncated to the whole second, so its true time then was in [Date, Date + 1 s). We take the
 * middle of both intervals: offset ≈ (Date + 500) − (sentAt + receivedAt) / 2. Returns null when
 * the header is missing or unreadable, or the round trip was too slow to say anything.
 */
export function estimateOffset(dateHeader: string | null, sentAt: number, receivedAt: number): number | null {
  if (!dateHeader) return null;
  const serverSecond = Date.parse(dateHeader);
  if (Number.isNaN(serverSecond)) return null;
  const roundTrip = receivedAt - sentAt;
  if (!(roundTrip >= 0) || roundTrip > MAX_ROUND_TRIP_MS) return null;
  return Math.round(serverSecond + 500 - (sentAt + receivedAt) / 2);
}

/**
 * Records one response's `Date` header. `sentAt` and `receivedAt` are `Date.now()` just before
 * the request and just after its response headers arrived.
 */
export function recordServerDate(dateHeader: string | null, sentAt: number, receivedAt: number): void {
  const estimate = estimateOffset(dateHeader, sentAt, receivedAt);
  if (estimate === null) return;
  if (Math.abs(estimate) <= CLOCK_SKEW_THRESHOLD_MS) {
    set(UNCORRECTED);
    return;
  }
  if (current.corrected && Math.abs(estimate - current.offsetMs) < MIN_CHANGE_MS) return;
  set({ offsetMs: estimate, corrected: true });
}

/** The current time by the server's clock (ms since the epoch): the device clock plus the offset. */
export function serverNow(): number {
  return Date.now() + current.offsetMs;
}

/** The current correction, without subscribing. */
export function getClockSkew(): ClockSkew {
  return current;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current correction; the component re-renders when it changes. */
export function useClockSkew(): ClockSkew {
  return useSyncExternalStore(subscribe, getClockSkew, getClockSkew);
}

/** Forgets the offset (tests, and a fresh start). */
export function resetServerClock(): void {
  set(UNCORRECTED);
}
