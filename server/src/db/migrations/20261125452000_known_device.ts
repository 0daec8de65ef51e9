import { SqliteAdapter, type Kysely } from 'kysely';

// Frozen in time: no imports from app code.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

/** The kinds of device (browser family on a system) each person has signed in from: "new device" notices. */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  await db.schema
    .createTable('known_device')
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('device_key', 'varchar(120)', (c) => c.notNull())
    .addColumn('first_seen_at', ts, (c) => c.notNull())
    .addColumn('last_seen_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('known_device_pk', ['user_id', 'device_key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('known_device').execute();
}
