import { formatCountIndian, formatRupees, parseRupeesToPaise } from '@common/pricing';

/** "123.40" (a server decimal string) → "₹123.40"; anything unparsable is shown as given. */
export function rupeesFromDecimal(decimal: string): string {
  const paise = parseRupeesToPaise(decimal);
  return paise === null ? `₹${decimal}` : formatRupees(paise, { decimals: 'always' });
}

/** A balance in paise as people read it: 12340 → "₹123.40". */
export function balanceRupees(paise: number): string {
  return formatRupees(paise, { decimals: 'always' });
}

export function count(value: number): string {
  return formatCountIndian(Math.round(value));
}

export function percent(value: number): string {
  return `${Number.isInteger(value) ? value : value.toFixed(1)}%`;
}

export function milliseconds(value: number | null): string {
  if (value === null) return '—';
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ms`;
}

const dateTime = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium' });
const shortDay = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const longDay = new Intl.DateTimeFormat('en-IN', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateOnly.format(date);
}

/** "2025-03-14" (a UTC day) → "14 Mar". */
export function formatShortDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : shortDay.format(date);
}

/** "2025-03-14" (a UTC day) → "Fri, 14 Mar 2025". */
export function formatLongDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : longDay.format(date);
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "just now", "5 minutes ago", "yesterday"…; older than a week → the date and time. */
export function timeAgo(iso: string, now: number = Date.now()): string {
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return iso;
  const seconds = Math.round((then - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86_400) return relative.format(Math.round(seconds / 86_400), 'day');
  return formatDateTime(iso);
}

/** A UTC day as YYYY-MM-DD. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The default export range: the last 30 UTC days, today included. */
export function last30Days(now: Date = new Date()): { from: string; to: string } {
  const to = utcDay(now);
  const from = utcDay(new Date(now.getTime() - 29 * 86_400_000));
  return { from, to };
}

const STATUS_WORDS: Record<string, string> = {
  verified: 'Verified',
  invalid_code: 'Invalid code',
  expired: 'Expired',
  replayed: 'Replayed',
};

/** A verification status in words ("invalid_code" → "Invalid code"). */
export function statusLabel(status: string): string {
  return STATUS_WORDS[status] ?? status.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}
