import type { Kysely } from 'kysely';

// Frozen in time: no imports from app code.

/**
 * verification_business_time_idx (business_id, created_at) is a prefix of
 * verification_business_time_id_idx (business_id, created_at, id): every query it served, the
 * longer one serves in the same order. Each recorded check paid for updating both.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('verification_business_time_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('verification_business_time_idx').on('totp_verification').columns(['business_id', 'created_at']).execute();
}
