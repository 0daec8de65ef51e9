/**
 * Searching a database for secrets: every column of every table (as text, and blobs as bytes)
 * and, on SQLite, the raw db/-wal/-shm files. Used by the tests whose attacker reads the
 * database or its files (server/src/secrets-at-rest.test.ts, features/vault).
 */
import { existsSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { AppContext } from '../../server/src/context';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export function base32Bytes(secret: string): Buffer {
  let bits = '';
  for (const ch of secret.replace(/=+$/, '').toUpperCase()) bits += BASE32.indexOf(ch).toString(2).padStart(5, '0');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

export interface Needle {
  /** what it is, for the failure message */
  what: string;
  /** text forms searched in columns and files */
  text: string[];
  /** raw byte forms searched in blob columns and files */
  bytes: Buffer[];
}

export function totpSecretNeedle(what: string, secret: string): Needle {
  const raw = base32Bytes(secret);
  return { what, text: [secret, secret.toLowerCase(), raw.toString('hex'), raw.toString('base64')], bytes: [raw] };
}

export interface StoredValue {
  where: string;
  text: string;
  bytes: Buffer | null;
}

/** Every column value of every table, as text and (for blobs) as bytes. */
export async function everyStoredValue(ctx: AppContext): Promise<StoredValue[]> {
  const tables =
    ctx.config.database.kind === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(ctx.db)).rows.map((r) => r.name)
      : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(ctx.db)).rows.map(
          (r) => r.name,
        );
  const values: StoredValue[] = [];
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(ctx.db);
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' || value instanceof Date) continue;
        const where = `${table}.${column}`;
        if (Buffer.isBuffer(value) || value instanceof Uint8Array) {
          const bytes = Buffer.from(value);
          values.push({ where, text: bytes.toString('latin1'), bytes });
        } else values.push({ where, text: typeof value === 'string' ? value : JSON.stringify(value), bytes: null });
      }
    }
  }
  return values;
}

/** Where any needle is found: in a column, or (SQLite) in the database files, WAL included. */
export async function findNeedles(ctx: AppContext, needles: Needle[]): Promise<string[]> {
  const found: string[] = [];
  for (const value of await everyStoredValue(ctx)) {
    for (const needle of needles) {
      const hit = needle.text.find((form) => value.text.includes(form)) ?? (value.bytes ? needle.bytes.find((raw) => value.bytes!.includes(raw))?.toString('hex') : undefined);
      if (hit) found.push(`${needle.what} in ${value.where}`);
    }
  }
  if (ctx.config.database.kind === 'sqlite') {
    const file = ctx.config.database.file;
    const files = [file, `${file}-wal`, `${file}-shm`].filter((f) => existsSync(f));
    if (!files.includes(file)) found.push(`(the SQLite file ${file} is missing: nothing was scanned on disk)`);
    for (const f of files) {
      const bytes = readFileSync(f);
      for (const needle of needles) {
        if (needle.text.some((form) => bytes.includes(Buffer.from(form))) || needle.bytes.some((raw) => bytes.includes(raw))) found.push(`${needle.what} in file ${f.split('/').pop()}`);
      }
    }
  }
  return [...new Set(found)];
}
