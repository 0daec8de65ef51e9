import { sha256Hex } from '../../lib/crypto';
import { randomBase62 } from '../../lib/ids';

export const API_KEY_PREFIX = 'sk_live_';
const API_KEY_PATTERN = /^sk_live_[0-9A-Za-z]{32}$/;

export interface NewApiKey {
  /** shown to the business once; never stored */
  key: string;
  /** stored and shown afterwards, enough to tell keys apart: `sk_live_AbCd` */
  prefix: string;
  hash: string;
}

export function generateApiKey(): NewApiKey {
  const key = `${API_KEY_PREFIX}${randomBase62(32)}`;
  return { key, prefix: key.slice(0, API_KEY_PREFIX.length + 4), hash: sha256Hex(key) };
}

/** The bearer token's hash, or null when it cannot be one of our keys (saves a query). */
export function apiKeyHash(candidate: string): string | null {
  return API_KEY_PATTERN.test(candidate) ? sha256Hex(candidate) : null;
}
