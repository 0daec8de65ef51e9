import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: no imports from app code.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * PostgreSQL only (SQLite's history read is a statement in code, verify/sqlite-group-sql.ts). The
 * throttle reads a user's newest checks by time, and a check's time is the millisecond its group
 * was written: a failure and a success of one user in the same millisecond sorted either way, and
 * with the success taken among the newest five the throttle let one more guess through. A tie
 * now sorts the failure as the newer, the safe side. The plan settings are the function's own
 * (20261126070000): an index lookup per user, the tie sorted among the rows of one millisecond.
 */
/** The function as 20261126070000 made it, with (up) or without (down) the tie's order. */
function recentChecksFunction(failureFirstOnTies: boolean) {
  const tie = (alias: string) => sql.raw(failureFirstOnTies ? `, ${alias}.status = 'verified'` : '');
  return sql`
    create or replace function sixdigit_group_recent_checks(p_business_ids text[], p_livemodes boolean[], p_user_ids text[], p_since timestamptz, p_limit integer)
    returns table (business_id text, livemode boolean, external_user_id text, status text, created_at timestamptz)
    language plpgsql volatile
    set plan_cache_mode = force_generic_plan set enable_seqscan = off set enable_hashjoin = off set enable_mergejoin = off
    as $$
    #variable_conflict use_column
    begin
      return query
        select u.business_id, u.livemode, u.external_user_id, v.status::text, v.created_at
        from unnest(p_business_ids, p_livemodes, p_user_ids) as u(business_id, livemode, external_user_id)
        cross join lateral (
          select t.status, t.created_at from totp_verification as t
          where t.business_id = u.business_id and t.external_user_id = u.external_user_id and t.created_at >= p_since
            and t.livemode is not distinct from u.livemode and t.status != 'replayed'
          order by t.created_at desc${tie('t')} limit p_limit
        ) as v
        order by v.created_at desc${tie('v')};
    end $$`;
}

export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await recentChecksFunction(true).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await recentChecksFunction(false).execute(db);
}
