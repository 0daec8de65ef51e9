import { randomFillSync } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes taken from a pool refilled by the CSPRNG 4 KB at a time (as Node's randomUUID
 * does), each byte used once: an id on the verify path no longer costs a randomBytes() call and
 * its buffer.
 */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function randomByte(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

/** Uniformly random base62 string (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/**
 * Like newId, in the same shape, but the first 8 characters are the time in milliseconds (base62,
 * in ASCII order), the other 12 random (71 bits): rows written together sit together in the
 * primary-key index, so a group of inserts dirties a few index pages instead of one page per row.
 * Only for rows whose creation time is public anyway (a verification's answer carries it).
 */
export function newTimeOrderedId(prefix: string): string {
  let time = '';
  for (let t = Date.now(), k = 0; k < 8; k++, t = Math.floor(t / 62)) time = BASE62[t % 62] + time;
  return `${prefix}_${time}${randomBase62(12)}`;
}

/** Prefixed, sortable-enough ids made in code so both engines behave alike: `biz_…`, `aud_…`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(20)}`;
}
