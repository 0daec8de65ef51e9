import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: no imports from app code.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * PostgreSQL only. A group of checks sends three statements: its two reads (the enrolments,
 * locked; the throttle history) and its write (replay guard, records, debit). Sent as text, each
 * was parsed and planned again for every group: traced under load, planning took ~2 ms of
 * PostgreSQL's ~3 ms per group, more than running them. As PL/pgSQL functions each statement is
 * planned once per connection and the plan kept.
 *
 * A kept plan is made without the group's values (a generic plan) and is not made again when a
 * table grows, so it must not depend on a table's size at the moment it was made: the history
 * read and the write turn sequential scans, hash and merge joins off for their own statement.
 * They are index lookups per check by design — per user on the user's (business, user, time)
 * index, per enrolment and per business on the primary key — whatever the tables hold. The
 * enrolment read is still planned per group (force_custom_plan): on nearly empty tables a kept
 * plan took the business's (business, mode, time) index, which matches two of its three terms
 * and would read every enrolment of the business for each user once the table had grown. It is
 * a plain join (a group's users are distinct), which plans in half the time of `in (…)`.
 *
 * Each read stays a statement of its own: in READ COMMITTED each takes its snapshot when it
 * starts, so the history read after the enrolment locks are held sees every failure committed by
 * a group that held them before.
 *
 * sixdigit_record_group with p_lines null is the careful way's write (a business that cannot pay
 * is not debited and missing from the answer); with p_lines, the one-message way's: the debit is
 * unconditional, so a business that cannot pay breaks the balance's CHECK constraint, and a debit
 * crossing a line (or the business's auto-refill threshold), or of a business with live webhook
 * endpoints, calls sixdigit_refuse_group(): the statement fails either way. The business rows are
 * locked in id order (no deadlock between groups), and last: the branches of the final select run
 * in order, the replay guard and the records before the debit, so the rows are locked only for the
 * debit and what follows it up to the commit.
 */
/** A plan kept per connection that stays an index lookup per check, however the tables grow. */
const KEPT_INDEX_PLAN = sql.raw(`language plpgsql volatile
    set plan_cache_mode = force_generic_plan set enable_seqscan = off set enable_hashjoin = off set enable_mergejoin = off`);

export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`
    create function sixdigit_group_enrolments(p_business_ids text[], p_livemodes boolean[], p_user_ids text[])
    returns table (id text, business_id text, external_user_id text, secret_enc text, algorithm text, digits integer, period integer,
      last_used_step bigint, purpose text, livemode boolean)
    language plpgsql volatile
    set plan_cache_mode = force_custom_plan
    as $$
    #variable_conflict use_column
    begin
      return query
        select e.id::text, e.business_id::text, e.external_user_id::text, e.secret_enc, e.algorithm::text, e.digits, e.period,
          e.last_used_step, e.purpose::text, e.livemode
        from unnest(p_business_ids, p_livemodes, p_user_ids) as u(business_id, livemode, external_user_id)
        join enrolment as e on e.business_id = u.business_id and e.livemode = u.livemode and e.external_user_id = u.external_user_id
        order by e.business_id, e.livemode, e.external_user_id
        for update of e;
    end $$`.execute(db);

  // Per user, the newest p_limit checks inside the window that are not replays, read backwards on
  // the user's index from the window's start. The mode is compared with IS NOT DISTINCT FROM,
  // which no index serves, so the business's (business, mode, time) index never matches more terms.
  await sql`
    create function sixdigit_group_recent_checks(p_business_ids text[], p_livemodes boolean[], p_user_ids text[], p_since timestamptz, p_limit integer)
    returns table (business_id text, livemode boolean, external_user_id text, status text, created_at timestamptz)
    ${KEPT_INDEX_PLAN}
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
          order by t.created_at desc limit p_limit
        ) as v
        order by v.created_at desc;
    end $$`.execute(db);

  // adv: enrolment.id = any(…) besides the join, so the primary key is looked up per step.
  // locked: NO KEY UPDATE, as the UPDATE itself takes: it does not wait for other groups'
  // verification rows, whose foreign key holds a KEY SHARE lock on the business.
  await sql`
    create function sixdigit_record_group(
      p_at timestamptz,
      p_step_enrolment_ids text[], p_steps bigint[],
      p_ids text[], p_business_ids text[], p_user_ids text[], p_modes text[], p_methods text[], p_purposes text[], p_statuses text[],
      p_costs bigint[], p_response_ms double precision[], p_replay_unless text[], p_livemodes boolean[],
      p_debit_business_ids text[], p_amounts bigint[],
      p_lines bigint[])
    returns table (kind text, id text, balance_paise bigint, auto_refill_enabled boolean, auto_refill_threshold_paise bigint,
      auto_refill_pack_id text, has_webhooks boolean)
    ${KEPT_INDEX_PLAN}
    as $$
    #variable_conflict use_column
    begin
      return query
        with adv as (
          update enrolment set last_used_step = s.step, updated_at = p_at
          from unnest(p_step_enrolment_ids, p_steps) as s(id, step)
          where enrolment.id = s.id and enrolment.id = any(p_step_enrolment_ids)
            and (enrolment.last_used_step is null or enrolment.last_used_step < s.step)
          returning enrolment.id
        ), ins as (
          insert into totp_verification (id, business_id, external_user_id, mode, method, purpose, status, cost_paise, response_time_ms, created_at, livemode)
          select v.id, v.business_id, v.external_user_id, v.mode, v.method, v.purpose,
            case when v.replay_unless is not null and not exists (select 1 from adv where adv.id = v.replay_unless) then 'replayed' else v.status end,
            v.cost_paise, v.response_time_ms, p_at, v.livemode
          from unnest(p_ids, p_business_ids, p_user_ids, p_modes, p_methods, p_purposes, p_statuses, p_costs, p_response_ms, p_replay_unless, p_livemodes)
            as v(id, business_id, external_user_id, mode, method, purpose, status, cost_paise, response_time_ms, replay_unless, livemode)
          returning 1
        ), locked as materialized (
          select b.id from business as b where b.id = any(p_debit_business_ids) order by b.id for no key update
        ), deb as (
          update business set balance_paise = business.balance_paise - d.amount, updated_at = p_at
          from unnest(p_debit_business_ids, p_amounts) as d(id, amount)
          where business.id = d.id and business.id in (select locked.id from locked)
            and (p_lines is not null or business.balance_paise >= d.amount)
          returning business.id, business.balance_paise, d.amount, business.auto_refill_enabled, business.auto_refill_threshold_paise,
            business.auto_refill_pack_id, exists (select 1 from webhook where webhook.business_id = business.id and webhook.is_active and webhook.livemode) as has_webhooks
        ), refused as (
          select sixdigit_refuse_group(deb.id) as id from deb
          where p_lines is not null and (deb.has_webhooks or exists (
            select 1 from unnest(p_lines || deb.auto_refill_threshold_paise) as line(paise)
            where deb.balance_paise + deb.amount >= line.paise and deb.balance_paise < line.paise))
        )
        select 'adv'::text, adv.id::text, null::bigint, null::boolean, null::bigint, null::text, null::boolean from adv
        union all select 'ins', null, null, null, null, null, null from (select count(*) from ins) as inserted
        union all select 'deb', deb.id::text, deb.balance_paise, deb.auto_refill_enabled, deb.auto_refill_threshold_paise, deb.auto_refill_pack_id::text, deb.has_webhooks from deb
        union all select 'refused', refused.id, null, null, null, null, null from refused;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop function if exists sixdigit_record_group(timestamptz, text[], bigint[], text[], text[], text[], text[], text[], text[], text[], bigint[], double precision[], text[], boolean[], text[], bigint[], bigint[])`.execute(db);
  await sql`drop function if exists sixdigit_group_recent_checks(text[], boolean[], text[], timestamptz, integer)`.execute(db);
  await sql`drop function if exists sixdigit_group_enrolments(text[], boolean[], text[])`.execute(db);
}
