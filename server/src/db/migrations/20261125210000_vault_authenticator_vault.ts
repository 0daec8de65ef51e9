import { SqliteAdapter, type Kysely } from 'kysely';

// Frozen in time: no imports from app code.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * The end-to-end encrypted authenticator vault. The server keeps per person one header (the
 * vault key wrapped once per unlock method, with the KDF parameters: JSON the server cannot
 * unwrap) and entries as id + version + ciphertext: nothing it could read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  const bigint = isSqlite(db) ? 'integer' : 'bigint';
  await db.schema
    .createTable('vault')
    .addColumn('user_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('vault_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('format', 'integer', (c) => c.notNull())
    .addColumn('header_version', 'integer', (c) => c.notNull())
    .addColumn('slots', 'text', (c) => c.notNull())
    // moves on every write; entries remember the revision that wrote them (sync ?since=)
    .addColumn('revision', bigint, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('vault_entry')
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('vault.user_id').onDelete('cascade'))
    .addColumn('id', 'varchar(40)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('ciphertext', 'text') // null: deleted (a tombstone keeps the version)
    .addColumn('revision', bigint, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('vault_entry_pk', ['user_id', 'id'])
    .execute();
  await db.schema.createIndex('vault_entry_revision_idx').on('vault_entry').columns(['user_id', 'revision']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('vault_entry').execute();
  await db.schema.dropTable('vault').execute();
}
