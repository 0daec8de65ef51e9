import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: no imports from app code.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * PostgreSQL only. A group of checks is written and committed in ONE message (the write, then
 * COMMIT): the balance row is then locked only while PostgreSQL runs that message, not for a
 * round trip back to Node and another out. Such a write cannot stop to ask Node, so a group
 * that needs what only the careful path does (a debit that crosses a line with mail, events or
 * an auto-refill behind it, a business with live webhook endpoints) must fail the statement —
 * which skips the COMMIT that follows it in the message. This function is that failure.
 * (A business that cannot pay fails the balance's own CHECK constraint.)
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`
    create function sixdigit_refuse_group(business_id text) returns text language plpgsql volatile as $$
    begin
      raise exception 'sixdigit: this group of checks needs the careful path (business %)', business_id using errcode = 'P0001';
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop function if exists sixdigit_refuse_group(text)`.execute(db);
}
