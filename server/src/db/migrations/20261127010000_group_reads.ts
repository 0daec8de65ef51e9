import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: no imports from app code.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * PostgreSQL only. The live writer's two reads as one call: each query a group sends costs the
 * server ~80 µs of its own CPU (the driver's messages, the answer's parsing, a system call), as
 * much as PostgreSQL's work for a small group. The function runs the two reads as two statements,
 * the enrolments (locked) first: in READ COMMITTED a volatile function takes a new snapshot for
 * each statement, so the history read still starts after the enrolment locks are held and sees
 * every check committed by a group that held them before. Rows are told apart by `kind`: 'enr'
 * (an enrolment) or 'chk' (one of the history's checks).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`
    create function sixdigit_group_reads(p_business_ids text[], p_livemodes boolean[], p_user_ids text[], p_since timestamptz, p_limit integer)
    returns table (kind text, id text, business_id text, external_user_id text, secret_enc text, algorithm text, digits integer, period integer,
      status text, created_at timestamptz)
    language plpgsql volatile
    set plan_cache_mode = force_generic_plan
    as $$
    #variable_conflict use_column
    begin
      return query
        select 'enr'::text, e.id, e.business_id, e.external_user_id, e.secret_enc, e.algorithm, e.digits, e.period, null::text, null::timestamptz
        from sixdigit_group_enrolments(p_business_ids, p_livemodes, p_user_ids) as e;
      return query
        select 'chk'::text, null::text, h.business_id, h.external_user_id, null::text, null::text, null::integer, null::integer, h.status, h.created_at
        from sixdigit_group_recent_checks(p_business_ids, p_livemodes, p_user_ids, p_since, p_limit) as h;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop function if exists sixdigit_group_reads(text[], boolean[], text[], timestamptz, integer)`.execute(db);
}
