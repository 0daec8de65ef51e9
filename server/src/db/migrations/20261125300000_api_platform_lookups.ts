import type { Kysely } from 'kysely';

// Frozen in time: no imports from app code.

/**
 * The public API's lookups page newest first with a cursor on (created_at, id): enrolments had no
 * index in that order (only business + user id), and the verification index gains id so a page
 * of equal timestamps is read from the index in one pass.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('enrolment_business_time_idx').on('enrolment').columns(['business_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('verification_business_time_id_idx').on('totp_verification').columns(['business_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('verification_business_time_id_idx').execute();
  await db.schema.dropIndex('enrolment_business_time_idx').execute();
}
