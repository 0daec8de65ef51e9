#!/usr/bin/env node
// The `sixdigit` operator command: runs the TypeScript CLI through tsx, as `npm start` runs the server.
import { register } from 'tsx/esm/api';

process.env.SIXDIGIT_CLI_BIN = '1';
register();
await import('../server/src/cli.ts');
