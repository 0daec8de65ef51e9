/**
 * Imported first by main.tsx, before any module builds a schema: zod's JIT probes `new Function`,
 * which our CSP (script-src 'self', no 'unsafe-eval') blocks and the browser reports as a
 * Content Security Policy issue on every page (Lighthouse best practices, "inspector-issues").
 * The interpreted parser is plenty for the few payloads the browser validates.
 */
import { config } from 'zod';

config({ jitless: true });
