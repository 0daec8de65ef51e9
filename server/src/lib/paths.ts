import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root: the nearest folder above this code with Sixdigit's package.json. Found by
 * looking, not by counting `..` from this file, because the same code runs from
 * server/src/lib (tsx: tests, dev, CLI) and from dist/server (the bundle `npm start` runs).
 */
function findProjectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'sixdigit') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no Sixdigit package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

export const PROJECT_ROOT = findProjectRoot();

/** A file or folder of the repository, by its path from the root. */
export const projectPath = (...segments: string[]): string => join(PROJECT_ROOT, ...segments);
