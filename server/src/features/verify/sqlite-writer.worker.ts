/**
 * The SQLite writer thread (see sqlite-writer.ts): its own connection to the database file, one
 * group at a time, each in its own BEGIN IMMEDIATE transaction, by the same group write as the
 * event loop's (sqlite-group-write.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { SecretBox } from '../../lib/crypto';
import { createLiveGroupWrite } from './sqlite-group-write';
import type { WriterRequest, WriterSetup } from './sqlite-writer';

const setup = workerData as WriterSetup;
const box = new SecretBox(setup.encryptionKey);
const db = new SQLite(setup.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
db.pragma('foreign_keys = ON');
db.pragma(`wal_autocheckpoint = ${setup.walAutocheckpointPages}`);

const writeGroup = createLiveGroupWrite(db, box);

parentPort!.on('message', (request: WriterRequest) => {
  parentPort!.postMessage({ seq: request.seq, reply: writeGroup(request.checks, performance.now()) });
});
