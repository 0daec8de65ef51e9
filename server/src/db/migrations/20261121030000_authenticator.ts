import { SqliteAdapter, type Kysely } from 'kysely';

// Frozen in time: no imports from app code. Secrets are AES-256-GCM blobs (see lib/crypto.ts).
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  const bigint = isSqlite(db) ? 'integer' : 'bigint';

  // The signed-in person's own account TOTP (/totp): one per user.
  await db.schema
    .createTable('account_totp')
    .addColumn('user_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('algorithm', 'varchar(10)', (c) => c.notNull())
    .addColumn('digits', 'integer', (c) => c.notNull())
    .addColumn('period', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('account_totp_backup_code')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('account_totp.user_id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', ts)
    .execute();
  await db.schema.createIndex('account_totp_backup_code_user_idx').on('account_totp_backup_code').columns(['user_id', 'code_hash']).execute();

  // The personal authenticator: third-party accounts whose codes the browser computes.
  await db.schema
    .createTable('authenticator_account')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(10)', (c) => c.notNull())
    .addColumn('issuer', 'varchar(200)')
    .addColumn('account_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('algorithm', 'varchar(10)', (c) => c.notNull())
    .addColumn('digits', 'integer', (c) => c.notNull())
    .addColumn('period', 'integer', (c) => c.notNull())
    .addColumn('counter', bigint)
    // keyed hash of issuer + name + secret: finds repeats without decrypting every secret
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('authenticator_account_user_fingerprint_uq', ['user_id', 'fingerprint'])
    .execute();
  await db.schema.createIndex('authenticator_account_user_idx').on('authenticator_account').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['authenticator_account', 'account_totp_backup_code', 'account_totp']) await db.schema.dropTable(table).execute();
}
