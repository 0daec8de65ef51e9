import { sql, type Kysely } from 'kysely';

// Frozen in time: no imports from app code.

/**
 * One live impersonation per administrator, held by the database: a second admin session
 * starting another while one runs must lose even when both start at the same moment (a check
 * before the insert would let both in). Rows already overlapping keep the newest open; the
 * older ones are closed at their expiry.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    update impersonation set ended_at = expires_at
    where ended_at is null and exists (
      select 1 from impersonation as later
      where later.admin_user_id = impersonation.admin_user_id and later.ended_at is null
        and (later.started_at > impersonation.started_at or (later.started_at = impersonation.started_at and later.id > impersonation.id))
    )`.execute(db);
  await db.schema
    .createIndex('impersonation_one_live_uq')
    .on('impersonation')
    .column('admin_user_id')
    .unique()
    .where(sql.ref('ended_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('impersonation_one_live_uq').execute();
}
