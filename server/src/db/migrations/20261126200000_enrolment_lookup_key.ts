import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: no imports from app code.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * PostgreSQL only. The group's enrolment read (sixdigit_group_enrolments) was planned again for
 * every group (force_custom_plan), ~0.1 ms of PostgreSQL's time per group, as much as reading
 * and locking a small group's rows: a plan kept per connection had to be avoided, because the
 * lookup by (business, mode, user) matches two of the business's (business, mode, time) index's
 * columns too, and with few enrolments per business (or none yet) the planner ranks that index
 * level with the unique one. A kept plan made then would scan every enrolment of the business for
 * each user once the business had grown.
 *
 * Now the read looks the user up by one key that only its own index holds: the business id
 * (length-prefixed, so no id can run into the next part), the mode and the user id as one text
 * value. With no other index on that expression, a kept plan is an index lookup per user however
 * few rows the table held when it was made. The update of last_used_step changes none of the
 * key's columns, so it stays heap-only (HOT).
 */
const KEY_FUNCTION = sql`
  create function sixdigit_enrolment_key(p_business_id text, p_livemode boolean, p_user_id text) returns text
    language sql immutable parallel safe
    return length(p_business_id)::text || ':' || p_business_id || case when p_livemode then ':t:' else ':f:' end || p_user_id`;

/** sixdigit_group_enrolments with the given plan settings and join condition (up's and down's). */
function groupEnrolmentsFunction(planSettings: string, joinOn: string) {
  return sql`
    create or replace function sixdigit_group_enrolments(p_business_ids text[], p_livemodes boolean[], p_user_ids text[])
    returns table (id text, business_id text, external_user_id text, secret_enc text, algorithm text, digits integer, period integer,
      last_used_step bigint, purpose text, livemode boolean)
    language plpgsql volatile
    ${sql.raw(planSettings)}
    as $$
    #variable_conflict use_column
    begin
      return query
        select e.id::text, e.business_id::text, e.external_user_id::text, e.secret_enc, e.algorithm::text, e.digits, e.period,
          e.last_used_step, e.purpose::text, e.livemode
        from unnest(p_business_ids, p_livemodes, p_user_ids) as u(business_id, livemode, external_user_id)
        join enrolment as e on ${sql.raw(joinOn)}
        order by e.business_id, e.livemode, e.external_user_id
        for update of e;
    end $$`;
}

export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await KEY_FUNCTION.execute(db);
  await sql`create index enrolment_user_key_idx on enrolment (sixdigit_enrolment_key(business_id, livemode, external_user_id))`.execute(db);
  // The users are distinct in a group (GroupCommit's distinctKey), so the join returns each once.
  await groupEnrolmentsFunction(
    'set plan_cache_mode = force_generic_plan set enable_seqscan = off set enable_hashjoin = off set enable_mergejoin = off',
    'sixdigit_enrolment_key(e.business_id, e.livemode, e.external_user_id) = sixdigit_enrolment_key(u.business_id, u.livemode, u.external_user_id)',
  ).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await groupEnrolmentsFunction(
    'set plan_cache_mode = force_custom_plan',
    'e.business_id = u.business_id and e.livemode = u.livemode and e.external_user_id = u.external_user_id',
  ).execute(db);
  await sql`drop index if exists enrolment_user_key_idx`.execute(db);
  await sql`drop function if exists sixdigit_enrolment_key(text, boolean, text)`.execute(db);
}
