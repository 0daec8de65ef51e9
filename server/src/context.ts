import { Migrator, type Kysely } from 'kysely';
import type { Config } from './config';
import { openDatabase, type Db } from './db';
import { migrations } from './db/migrations';
import type { Database } from './db/types';
import { buildAuthOptions, createAuth, migrateAuthTables, type Auth, type AuthOptions } from './features/auth/auth';
import { SecretBox } from './lib/crypto';
import { resolveEncryptionKey } from './lib/keys';

/** Everything a request handler may need, built once per process (or per test). */
export interface AppContext {
  config: Config;
  database: Db;
  db: Kysely<Database>;
  secrets: SecretBox;
  auth: Auth;
  authOptions: AuthOptions;
}

export function createContext(config: Config, database: Db = openDatabase(config.database)): AppContext {
  const secrets = new SecretBox(resolveEncryptionKey(config));
  const authSecret = config.authSecret ?? secrets.deriveKey('better-auth-secret').toString('base64');
  const authOptions = buildAuthOptions(config, database.db, database.dialect, authSecret);
  return { config, database, db: database.db, secrets, auth: createAuth(authOptions), authOptions };
}

/** better-auth's tables first (ours may refer to users), then ours in name order. */
export async function migrateToLatest(ctx: Pick<AppContext, 'db' | 'authOptions'>): Promise<string[]> {
  await migrateAuthTables(ctx.authOptions);
  const migrator = new Migrator({ db: ctx.db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
