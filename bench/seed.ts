/**
 * The bench's seed: one business with credit and enrolled users, as `npm run bench` and
 * `bench/instructions.ts` both need it (every user shares one secret, so the load generator
 * computes one code per time step; the server still decrypts and checks each).
 */
import type { AppContext } from '../server/src/context';
import { setRateLimit } from '../server/src/features/business/repo';
import { createBusiness } from '../server/src/features/business/service';
import { grantCredits } from '../server/src/features/credits/service';
import { insertEnrolments } from '../server/src/features/verify/repo';
import { encryptionContext } from '../server/src/features/verify/service';
import { newId } from '../server/src/lib/ids';

export interface Seeded {
  apiKey: string;
  businessId: string;
}

/** One business with credit for every request and `users` enrolled users (managed mode). */
export async function seedBusiness(ctx: AppContext, secret: string, index: number, users: number, credits: number, rateLimit: number): Promise<Seeded> {
  // The owner is made through better-auth's own adapter, as a sign-in would make it.
  const authCtx = await ctx.auth.$context;
  const email = `bench${index}@example.com`;
  const user = (await authCtx.internalAdapter.findUserByEmail(email))?.user ?? (await authCtx.internalAdapter.createUser({ email, name: `Bench Owner ${index}` }, { method: 'bench' }));
  const { profile, apiKey } = await createBusiness(ctx, { id: user.id, email: user.email, firstName: 'Bench', lastName: 'Owner', profileImageUrl: null, role: 'user', isAdmin: false }, `Bench Co ${index}`);
  await setRateLimit(ctx.db, profile.id, rateLimit);
  await grantCredits(ctx.db, { businessIdOrEmail: profile.id, amountPaise: credits * 10, reason: 'benchmark' }, { userId: null, label: 'bench' });
  const now = new Date();
  const batch = 500;
  for (let start = 0; start < users; start += batch) {
    const rows = [];
    for (let i = start; i < Math.min(users, start + batch); i++) {
      const externalUserId = `bench_${i}`;
      rows.push({
        id: newId('enr'),
        businessId: profile.id,
        externalUserId,
        secretEnc: ctx.secrets.encrypt(secret, encryptionContext(profile.id, externalUserId)),
        algorithm: 'SHA1' as const,
        digits: 6,
        period: 30,
        purpose: null,
        livemode: true,
      });
    }
    await insertEnrolments(ctx.db, rows, now);
  }
  return { apiKey, businessId: profile.id };
}
