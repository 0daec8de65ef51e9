import type { Redis } from 'ioredis';
import type { AppContext } from '../../context';
import { sha256Hex } from '../../lib/crypto';
import { randomBase62 } from '../../lib/ids';
import { findBusinessByApiKeyHash, type Business } from './repo';

export const API_KEY_PREFIX = 'sk_live_';
/** Test mode's keys: every call free, data kept apart from live (livemode: false). */
export const TEST_API_KEY_PREFIX = 'sk_test_';
const API_KEY_PATTERN = /^sk_(?:live|test)_[0-9A-Za-z]{32}$/;

export interface NewApiKey {
  /** shown to the business once; never stored */
  key: string;
  /** stored and shown afterwards, enough to tell keys apart: `sk_live_AbCd` */
  prefix: string;
  hash: string;
}

export function generateApiKey(livemode = true): NewApiKey {
  const prefix = livemode ? API_KEY_PREFIX : TEST_API_KEY_PREFIX;
  const key = `${prefix}${randomBase62(32)}`;
  return { key, prefix: key.slice(0, prefix.length + 4), hash: sha256Hex(key) };
}

/** The bearer token's hash, or null when it cannot be one of our keys (saves a query). */
export function apiKeyHash(candidate: string): string | null {
  return API_KEY_PATTERN.test(candidate) ? sha256Hex(candidate) : null;
}

// --- the key lookup, from memory --------------------------------------------------------------

/**
 * The stated bound: a key revoked, or a business suspended or banned, by any path (another
 * instance without Redis, a CLI, a database operator) stops working within this long.
 * Revocation, suspension and bans made through this process's services, or through any instance
 * when Redis is configured (pub/sub), take effect at once.
 */
export const API_KEY_CACHE_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

export interface ApiKeyOwner {
  keyId: string;
  /** A snapshot up to API_KEY_CACHE_TTL_MS old: never read its balance (the debit gives it). */
  business: Business;
  ownerBanned: boolean;
  /** false for a test key: its calls are free and see only test data */
  livemode: boolean;
}

interface Cache {
  entries: Map<string, { owner: ApiKeyOwner; expiresAt: number }>;
  /** Bumped by every invalidation: a lookup that started before one does not store its answer. */
  generation: number;
  publish?: () => void;
}

// One cache per context (tests build many apps on many databases in one process).
const caches = new WeakMap<AppContext, Cache>();
function cacheOf(ctx: AppContext): Cache {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = { entries: new Map(), generation: 0 }));
  return cache;
}

/**
 * The one place a key becomes a business, now from memory: whatever stops a key (revocation,
 * suspension, the owner banned or removed) is decided by the row read here and by
 * invalidateApiKeys().
 */
export async function lookupApiKey(ctx: AppContext, hash: string): Promise<ApiKeyOwner | undefined> {
  const hit = cachedApiKey(ctx, hash);
  if (hit) return hit;
  const cache = cacheOf(ctx);
  const now = Date.now();
  const generation = cache.generation;
  const found = await findBusinessByApiKeyHash(ctx.db, hash);
  if (!found || generation !== cache.generation) return found;
  if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
  cache.entries.set(hash, { owner: found, expiresAt: now + API_KEY_CACHE_TTL_MS });
  return found;
}

/** The key's owner if it is in memory and fresh, without a promise (the API's hot path); else lookupApiKey. */
export function cachedApiKey(ctx: AppContext, hash: string): ApiKeyOwner | undefined {
  const hit = cacheOf(ctx).entries.get(hash);
  return hit && hit.expiresAt > Date.now() ? hit.owner : undefined;
}

/** Forget every cached key here and, through Redis, on every instance. Call after the commit. */
export function invalidateApiKeys(ctx: AppContext): void {
  const cache = cacheOf(ctx);
  forget(cache);
  cache.publish?.();
}

function forget(cache: Cache): void {
  cache.generation++;
  cache.entries.clear();
}

/**
 * Several instances: each one's invalidation reaches the others through one Redis channel.
 * Subscribing needs its own connection; returns the function that closes it.
 */
export async function shareApiKeyInvalidation(ctx: AppContext, redis: Redis, channel: string): Promise<() => void> {
  const cache = cacheOf(ctx);
  const subscriber = redis.duplicate();
  await subscriber.subscribe(channel);
  subscriber.on('message', () => forget(cache));
  // A lost publish is still bounded by API_KEY_CACHE_TTL_MS.
  cache.publish = () => void redis.publish(channel, '*').catch(() => undefined);
  return () => {
    cache.publish = undefined;
    subscriber.disconnect();
  };
}

// --- failed lookups ---------------------------------------------------------------------------

/**
 * Well-formed keys that match nothing, per client address per minute; more unknown keys from that
 * address answer 429. Only unknown keys count and only they are refused: a valid key from the
 * same address still works (the key is looked up first), limited only by its own per-key limit.
 */
export const FAILED_LOOKUPS_PER_MINUTE = 60;
const failures = new WeakMap<AppContext, Map<string, { count: number; resetAt: number }>>();

/** Seconds to wait when this address has used up its failed lookups, else null. */
export function failedLookupRetryAfter(ctx: AppContext, ip: string): number | null {
  const entry = failures.get(ctx)?.get(ip);
  const now = Date.now();
  if (!entry || entry.resetAt <= now || entry.count < FAILED_LOOKUPS_PER_MINUTE) return null;
  return Math.max(1, Math.ceil((entry.resetAt - now) / 1000));
}

export function recordFailedLookup(ctx: AppContext, ip: string): void {
  let perIp = failures.get(ctx);
  if (!perIp) failures.set(ctx, (perIp = new Map()));
  const now = Date.now();
  const entry = perIp.get(ip);
  if (entry && entry.resetAt > now) entry.count++;
  else {
    if (perIp.size >= MAX_ENTRIES) perIp.clear();
    perIp.set(ip, { count: 1, resetAt: now + 60_000 });
  }
}
