import type { Kysely } from 'kysely';

// Frozen in time: no imports from app code.

/**
 * verification_business_time_idx (business_id, created_at) serves nothing that
 * verification_business_mode_time_idx (business_id, livemode, created_at, id, from test mode)
 * does not: every read of a business's checks by time names one mode. Each recorded check paid
 * for updating both.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('verification_business_time_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('verification_business_time_idx').on('totp_verification').columns(['business_id', 'created_at']).execute();
}
