import { SqliteAdapter, type Kysely } from 'kysely';

// Frozen in time: no imports from app code. The administrator's authenticator-app MFA, its
// per-session verifications and attempt log, impersonation sessions and the notices users see.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  const bigint = isSqlite(db) ? 'integer' : 'bigint';

  // One row per administrator account: a pending secret until the first code confirms it.
  await db.schema
    .createTable('admin_mfa')
    .addColumn('user_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', ts)
    // RFC 6238 §5.2: the last accepted time step; a code at or before it is refused.
    .addColumn('last_used_step', bigint)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('admin_mfa_recovery_code')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', ts)
    .execute();
  await db.schema.createIndex('admin_mfa_recovery_code_user_idx').on('admin_mfa_recovery_code').columns(['user_id', 'code_hash']).execute();

  // Failed attempts are counted here, not in memory: a restart or a second instance keeps the count.
  await db.schema
    .createTable('admin_mfa_attempt')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('admin_mfa_attempt_user_idx').on('admin_mfa_attempt').columns(['user_id', 'created_at']).execute();

  // MFA is verified per sign-in session (valid 30 minutes from verified_at).
  await db.schema
    .createTable('admin_mfa_session')
    .addColumn('session_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('verified_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('impersonation')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('admin_user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('admin_email', 'varchar(320)', (c) => c.notNull())
    .addColumn('target_user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_email', 'varchar(320)', (c) => c.notNull())
    .addColumn('session_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('reason', 'varchar(500)', (c) => c.notNull())
    .addColumn('started_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('ended_at', ts)
    .execute();
  await db.schema.createIndex('impersonation_session_idx').on('impersonation').column('session_id').execute();
  await db.schema.createIndex('impersonation_target_idx').on('impersonation').columns(['target_user_id', 'started_at']).execute();

  // Messages to a person about their account (today: "an administrator acted as you").
  await db.schema
    .createTable('user_notice')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(40)', (c) => c.notNull())
    .addColumn('subject_id', 'varchar(64)')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    // shown from this moment on (an impersonation's notice appears once it is over)
    .addColumn('visible_from', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('read_at', ts)
    .execute();
  await db.schema.createIndex('user_notice_user_idx').on('user_notice').columns(['user_id', 'visible_from']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['user_notice', 'impersonation', 'admin_mfa_session', 'admin_mfa_attempt', 'admin_mfa_recovery_code', 'admin_mfa']) {
    await db.schema.dropTable(table).execute();
  }
}
