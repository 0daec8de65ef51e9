import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';

/**
 * The AES-256-GCM key for secrets at rest. Production must set APP_ENCRYPTION_KEY (checked in
 * config). In development a key is made once under the data folder, readable by the owner only,
 * so a fresh install works without inventing secrets and restarts can still decrypt.
 */
export function resolveEncryptionKey(config: Config): string {
  if (config.encryptionKey) return config.encryptionKey;
  const file = join(config.dataDir, 'encryption.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}
