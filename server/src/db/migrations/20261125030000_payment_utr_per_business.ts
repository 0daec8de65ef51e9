import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: no imports from app code.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * A UTR quoted by a second business no longer answers "already submitted" (that told a stranger
 * the UTR exists and let the first claimant block the real payer): each business may quote a UTR
 * once, both claims go to the desk, and a UTR is credited at most once (approved), whoever quoted it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    // SQLite cannot drop a column's UNIQUE: rebuild the table from its own definition, minus that word.
    const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'payment_request'`.execute(db);
    const indexes = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = 'payment_request' and sql is not null`.execute(db);
    const createSql = table.rows[0]!.sql;
    const withoutUnique = createSql.replace(/("utr"\s+varchar\(22\)\s+not null)\s+unique/i, '$1');
    if (withoutUnique === createSql) throw new Error('payment_request.utr: UNIQUE not found where expected');
    await sql.raw(withoutUnique.replace(/^create table\s+"?payment_request"?/i, 'create table "payment_request_rebuild"')).execute(db);
    await sql`insert into payment_request_rebuild select * from payment_request`.execute(db);
    await sql`drop table payment_request`.execute(db);
    await sql`alter table payment_request_rebuild rename to payment_request`.execute(db);
    for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
  } else {
    await sql`alter table payment_request drop constraint if exists payment_request_utr_key`.execute(db);
  }
  await db.schema.createIndex('payment_request_business_utr_uq').on('payment_request').columns(['business_id', 'utr']).unique().execute();
  await db.schema.createIndex('payment_request_utr_idx').on('payment_request').column('utr').execute();
  // Credited once: at most one approved request per UTR, even when two desks approve at the same moment.
  await db.schema
    .createIndex('payment_request_utr_approved_uq')
    .on('payment_request')
    .column('utr')
    .unique()
    .where(sql.ref('status'), '=', 'approved')
    .execute();
}

/** Drops the new indexes; a global UNIQUE on utr cannot come back once two businesses share a UTR. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('payment_request_utr_approved_uq').execute();
  await db.schema.dropIndex('payment_request_utr_idx').execute();
  await db.schema.dropIndex('payment_request_business_utr_uq').execute();
}
