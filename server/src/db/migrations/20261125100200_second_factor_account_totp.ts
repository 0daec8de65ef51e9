import { SqliteAdapter, type Kysely } from 'kysely';

// Frozen in time: no imports from app code. The account TOTP becomes a second factor at sign-in
// (issue 19): it protects sign-in only once a first code confirms it; codes are accepted once
// (RFC 6238 §5.2) and failed attempts are counted in the database.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  const bigint = isSqlite(db) ? 'integer' : 'bigint';

  // Rows made before this migration stay unconfirmed (pending): nobody proved they scanned them,
  // and a secret nobody holds must not start guarding a sign-in.
  await db.schema.alterTable('account_totp').addColumn('confirmed_at', ts).execute();
  await db.schema.alterTable('account_totp').addColumn('last_used_step', bigint).execute();
  await db.schema.alterTable('account_totp').addColumn('last_used_at', ts).execute();

  // Failed codes per account (5 in 15 minutes, then 429): here, not in memory, so a restart or
  // another instance does not reset the count.
  await db.schema
    .createTable('account_totp_attempt')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('account_totp_attempt_user_idx').on('account_totp_attempt').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_totp_attempt').execute();
  for (const column of ['last_used_at', 'last_used_step', 'confirmed_at']) {
    await db.schema.alterTable('account_totp').dropColumn(column).execute();
  }
}
