import type { Kysely } from 'kysely';

// Frozen in time: no imports from app code.

/**
 * Webhook endpoints over the public API: an endpoint gains the owner's free-text description
 * (Stripe's `description`), and one endpoint's delivery log pages newest first with a cursor on
 * (created_at, id) — the existing index is per business only.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook').addColumn('description', 'text').execute();
  await db.schema.createIndex('webhook_delivery_endpoint_time_idx').on('webhook_delivery').columns(['webhook_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_delivery_endpoint_time_idx').execute();
  await db.schema.alterTable('webhook').dropColumn('description').execute();
}
