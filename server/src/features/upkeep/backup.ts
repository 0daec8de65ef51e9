import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import type { Config } from '../../config';
import { AppError } from '../../lib/errors';

export interface BackupResult {
  file: string;
  bytes: number;
  pages: number;
}

/**
 * A consistent copy of the SQLite database while the server keeps writing: SQLite's online
 * backup API copies a snapshot page by page and restarts if a writer changes a copied page.
 * The copy is then checked with `PRAGMA integrity_check` before it is reported as good.
 */
export async function backupSqlite(database: Config['database'], target: string): Promise<BackupResult> {
  if (database.kind !== 'sqlite') {
    throw new AppError(
      'bad_request',
      'backup copies the embedded SQLite database only. This server uses PostgreSQL: back it up with pg_dump (logical, e.g. `pg_dump -Fc "$DATABASE_URL" > sixdigit.dump`) or pg_basebackup with WAL archiving for point-in-time recovery.',
    );
  }
  const source = resolve(database.file);
  const file = resolve(target);
  if (!existsSync(source)) throw new AppError('not_found', `No SQLite database at ${source}.`);
  if (file === source) throw new AppError('bad_request', 'The backup file must not be the database itself.');
  if (existsSync(file)) throw new AppError('conflict', `${file} already exists; choose a new file name (a backup never overwrites).`);

  const db = new SQLite(source, { fileMustExist: true });
  let pages: number;
  try {
    db.pragma('busy_timeout = 5000');
    pages = (await db.backup(file)).totalPages;
  } finally {
    db.close();
  }
  const copy = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new AppError('internal_error', `The copy at ${file} failed its integrity check: ${String(check)}`);
  } finally {
    copy.close();
  }
  return { file, bytes: statSync(file).size, pages };
}
