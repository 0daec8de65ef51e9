import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: no imports from app code.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * Test mode: every business gets a second key (sk_test_…) whose calls are free and whose data is
 * kept apart from live data. Each row that belongs to one mode says which (`livemode`, true for
 * every existing row): API keys, enrolments, verifications, idempotency records and webhook
 * endpoints. One user_id may be enrolled in both modes and one Idempotency-Key used in both,
 * so those two uniqueness rules gain the mode.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = isSqlite(db);
  const bool = sqlite ? 'integer' : 'boolean';
  const live = sqlite ? sql`1` : sql`true`;
  for (const table of ['api_key', 'enrolment', 'totp_verification', 'idempotency_record', 'webhook']) {
    await db.schema.alterTable(table).addColumn('livemode', bool, (c) => c.notNull().defaultTo(live)).execute();
  }
  if (sqlite) {
    // SQLite cannot drop a table constraint: rebuild each table from its own definition with the
    // mode in the constraint (the documented procedure: foreign keys off, so dropping enrolment
    // does not cascade to backup_code, whose reference then names the rebuilt table).
    await sql`pragma foreign_keys = off`.execute(db);
    try {
      await sql`begin`.execute(db);
      try {
        await rebuildSqlite(db, 'enrolment', /"business_id",\s*"external_user_id"/, '"business_id", "livemode", "external_user_id"');
        await rebuildSqlite(db, 'idempotency_record', /"business_id",\s*"idempotency_key"/, '"business_id", "livemode", "idempotency_key"');
        const broken = await sql`pragma foreign_key_check`.execute(db);
        if (broken.rows.length > 0) throw new Error('test mode migration: foreign keys broken by the rebuild');
        await sql`commit`.execute(db);
      } catch (err) {
        await sql`rollback`.execute(db);
        throw err;
      }
    } finally {
      await sql`pragma foreign_keys = on`.execute(db);
    }
  } else {
    await sql`alter table enrolment drop constraint enrolment_business_user_uq`.execute(db);
    await sql`alter table enrolment add constraint enrolment_business_user_uq unique (business_id, livemode, external_user_id)`.execute(db);
    await sql`alter table idempotency_record drop constraint idempotency_record_pk`.execute(db);
    await sql`alter table idempotency_record add constraint idempotency_record_pk primary key (business_id, livemode, idempotency_key)`.execute(db);
  }
  // The lookups and the dashboard read one mode at a time, newest first.
  await db.schema.dropIndex('enrolment_business_time_idx').execute();
  await db.schema.createIndex('enrolment_business_mode_time_idx').on('enrolment').columns(['business_id', 'livemode', 'created_at', 'id']).execute();
  await db.schema.dropIndex('verification_business_time_id_idx').execute();
  await db.schema.createIndex('verification_business_mode_time_idx').on('totp_verification').columns(['business_id', 'livemode', 'created_at', 'id']).execute();
}

async function rebuildSqlite(db: Kysely<any>, table: string, columns: RegExp, withMode: string): Promise<void> {
  const created = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  const indexes = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(db);
  const createSql = created.rows[0]!.sql;
  const changed = createSql.replace(columns, withMode);
  if (changed === createSql) throw new Error(`${table}: constraint not found where expected`);
  const rebuild = `${table}_rebuild`;
  await sql.raw(changed.replace(new RegExp(`^create table\\s+"?${table}"?`, 'i'), `create table "${rebuild}"`)).execute(db);
  await sql.raw(`insert into "${rebuild}" select * from "${table}"`).execute(db);
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(`alter table "${rebuild}" rename to "${table}"`).execute(db);
  for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
}

/** Keeps the columns (test rows would break the old uniqueness); restores the indexes' names. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('verification_business_mode_time_idx').execute();
  await db.schema.createIndex('verification_business_time_id_idx').on('totp_verification').columns(['business_id', 'created_at', 'id']).execute();
  await db.schema.dropIndex('enrolment_business_mode_time_idx').execute();
  await db.schema.createIndex('enrolment_business_time_idx').on('enrolment').columns(['business_id', 'created_at', 'id']).execute();
}
