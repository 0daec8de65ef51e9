/**
 * The server as JavaScript bundles in dist/server: main.js, which `npm start` runs with plain Node,
 * and the SQLite writer thread's module beside it.
 *
 * Why not `node --import tsx server/src/main.ts`: on Node 20 a TypeScript loader runs as module
 * hooks on a thread of its own, with its own V8 heap. Loading the server's ~2,700 modules left
 * that heap ~130 MB of garbage for the ~8 s until its memory reducer ran (RSS 340 MB at start,
 * then 211 MB idle), and it kept ~70 MB for good; bundled, the same server starts at 168 MB and
 * idles at 139 MB (bench/README.md, the fourteenth round). A container with a 256 MB limit would
 * have killed it at boot.
 *
 * Only our own code is bundled: packages stay imports, resolved from node_modules as before, so
 * native addons, wasm files and packages' own workers are untouched. Paths to the repository's
 * files (docs, blog, workers) come from lib/paths.ts, not from where a module's code sits.
 * `npm run dev`, the CLI and the tests still run the TypeScript directly.
 */
import { build } from 'esbuild';
import { pathToFileURL } from 'node:url';

/** Where `npm start`'s bundles go, and the one it runs. */
export const SERVER_DIR = 'dist/server';
export const SERVER_BUNDLE = `${SERVER_DIR}/main.js`;
/**
 * The server's entry points: the process, and the SQLite writer thread's module
 * (SQLITE_WRITER=thread), which a worker loads on its own (sqlite-writer.ts finds it beside the
 * process's bundle).
 */
export const SERVER_ENTRIES = { main: 'server/src/main.ts', 'sqlite-writer.worker': 'server/src/features/verify/sqlite-writer.worker.ts' };

/** Bundles each entry (our code; packages stay external) into `outdir` as `<name>.js`, with a source map. */
export async function bundleForNode(entries: Record<string, string>, outdir: string): Promise<void> {
  await build({
    entryPoints: entries,
    outdir,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
}

export const buildServer = (outdir: string = SERVER_DIR): Promise<void> => bundleForNode(SERVER_ENTRIES, outdir);

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildServer();
