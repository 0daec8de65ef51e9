import { SqliteAdapter, type Kysely } from 'kysely';

// Frozen in time: no imports from app code.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * The first admin MFA enrolment needs a one-time code only the operator sees (start-up log or
 * `admin:mfa-enrol-code`): the admin's cookie alone no longer enrols an authenticator. Only a
 * SHA-256 of the code is stored; at most one code is current (a new one replaces the rest).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  await db.schema
    .createTable('admin_mfa_enrolment_code')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('used_at', ts)
    .execute();
  // A pending secret made before this rule (cookie only) must not become the MFA: setup starts again, with a code.
  await db.deleteFrom('admin_mfa').where('confirmed_at', 'is', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('admin_mfa_enrolment_code').execute();
}
