import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, inject, it, describe } from 'vitest';
import { createTestDatabase } from '../../../test/support/db';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Runs test/support/close-after-live-group.ts on `url`: its output and exit code. */
function closeAfterLiveGroup(url: string): Promise<{ output: string; code: number | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/close-after-live-group.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((done) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      done({ output, code });
    }),
  );
}

describe.skipIf(!inject('postgresAvailable'))('closing the database where nothing else holds the process open [postgres]', () => {
  it('settles after the group writer kept a connection: the code after close() runs and the process exits 0', async () => {
    const database = await createTestDatabase('postgres');
    try {
      const { output, code } = await closeAfterLiveGroup((database.config as { url: string }).url);
      // Without the hold in close(): "group written", then exit code 13 (an unsettled top-level await), no "closed".
      expect(output).toContain('group written');
      expect(output).toContain('closed');
      expect(code).toBe(0);
    } finally {
      await database.drop();
    }
  }, 90_000);
});
