import { SqliteAdapter, type Kysely } from 'kysely';

// Frozen in time: no imports from app code. Passkeys (WebAuthn credentials) and the challenges of
// the ceremonies in flight, kept in the database so any instance can finish a ceremony another began.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const ts = isSqlite(db) ? 'text' : 'timestamptz';
  const bool = isSqlite(db) ? 'integer' : 'boolean';
  const bigint = isSqlite(db) ? 'integer' : 'bigint';

  await db.schema
    .createTable('passkey')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    // base64url of the credential id (at most 1023 bytes, WebAuthn §5.8.3)
    .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull().unique())
    // base64url of the COSE public key: all the server ever holds
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', bigint, (c) => c.notNull())
    // JSON array of transport hints ("internal", "hybrid", "usb", ...)
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('device_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('backed_up', bool, (c) => c.notNull())
    // whether the authenticator answered the PRF extension at registration (the vault unlocks with it)
    .addColumn('prf_supported', bool, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('last_used_at', ts)
    .execute();
  await db.schema.createIndex('passkey_user_idx').on('passkey').column('user_id').execute();

  // One row per ceremony in flight; deleted when used (single use) or once expired.
  await db.schema
    .createTable('webauthn_challenge')
    .addColumn('challenge', 'varchar(128)', (c) => c.primaryKey())
    // register | sign_in | admin_mfa
    .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)')
    // bound to the sign-in session that asked, or (signed out) to a random ceremony cookie
    .addColumn('session_id', 'varchar(64)')
    .addColumn('ceremony_id', 'varchar(64)')
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webauthn_challenge_expiry_idx').on('webauthn_challenge').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webauthn_challenge').execute();
  await db.schema.dropTable('passkey').execute();
}
