/**
 * A process with nothing else to do, as a script or the CLI is: it writes one live group on the
 * PostgreSQL database at DATABASE_URL (so the group writer keeps a connection), closes the
 * database, then prints "closed". Run as a child by `server/src/db/close.process.test.ts`.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/src/config';
import { createContext, migrateToLatest } from '../../server/src/context';
import { createBusiness } from '../../server/src/features/business/service';
import { grantCredits } from '../../server/src/features/credits/service';
import { liveWriterOf } from '../../server/src/features/verify/service';

const ctx = createContext(
  loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: process.env.DATABASE_URL,
    APP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    ADMIN_EMAIL: 'admin@example.com',
    DATA_DIR: join(tmpdir(), 'sixdigit-test-data'),
  }),
);
await migrateToLatest(ctx);
const owner = await (await ctx.auth.$context).internalAdapter.createUser({ email: 'close@example.com', name: 'Close Owner' }, { method: 'test' });
const { profile } = await createBusiness(ctx, { id: owner.id, email: owner.email, firstName: 'Close', lastName: 'Owner', profileImageUrl: null, role: 'user', isAdmin: false }, 'Close Co');
await grantCredits(ctx.db, { businessIdOrEmail: profile.id, amountPaise: 1_000, reason: 'test' }, { userId: null, label: 'test' });
// One stateless check, written and charged; the writer keeps its connection for the next group.
const reply = await liveWriterOf(ctx)!.write([{ id: 'ver_close_probe', businessId: profile.id, userId: null, code: '123456', secret: 'JBSWY3DPEHPK3PXP', window: 1, purpose: null, elapsedMs: 0 }]);
console.log(`group ${reply.kind}`);
await ctx.database.close();
console.log('closed');
