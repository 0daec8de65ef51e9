import { spawnSync } from 'node:child_process';

/** php-cli runs the PHP code samples (common/samples); Debian's package is `php-cli`. */
export const PHP_BINARY = process.env.PHP_PATH ?? 'php';

/** null when `php` runs, else why not. */
export function phpProblem(): string | null {
  const probe = spawnSync(PHP_BINARY, ['-r', 'echo PHP_VERSION;'], { encoding: 'utf8', timeout: 10_000 });
  if (probe.error) return 'not installed (apt-get install php-cli)';
  if (probe.status !== 0) return `exited with ${String(probe.status)}: ${probe.stderr.trim()}`;
  return null;
}
