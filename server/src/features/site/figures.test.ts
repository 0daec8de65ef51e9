import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIGURE_THRESHOLDS } from '@common/site-figures';
import { createTestApp, describeEachDialect, type TestApp } from '../../../../test/support/db';
import { createBusiness } from '../../../../test/support/payments';
import { fund } from '../../../../test/support/verify-api';
import { appendCredit } from '../credits/repo';
import { newId } from '../../lib/ids';
import { countFigures, createFiguresSource } from './figures';

const silent = pino({ level: 'silent' });

describeEachDialect('the landing page figures', (dialect) => {
  let t: TestApp;
  let businessIds: string[];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    businessIds = (await Promise.all([createBusiness(t.app, 'Figures A'), createBusiness(t.app, 'Figures B')])).map((b) => b.businessId);
  });
  afterAll(async () => t?.close());

  const addVerifications = async (businessId: string, count: number, livemode = true) => {
    const now = new Date();
    for (let done = 0; done < count; done += 1000) {
      const rows = Array.from({ length: Math.min(1000, count - done) }, () => ({
        id: newId('ver'),
        business_id: businessId,
        external_user_id: null,
        mode: 'stateless' as const,
        method: 'totp' as const,
        purpose: null,
        status: 'verified' as const,
        cost_paise: 0,
        response_time_ms: 1,
        created_at: now,
        livemode,
      }));
      await t.ctx.db.insertInto('totp_verification').values(rows).execute();
    }
  };
  const topUp = (businessId: string) =>
    t.ctx.db.transaction().execute((trx) =>
      appendCredit(trx, { id: newId('led'), businessId, amountPaise: 500_000, kind: 'top_up', reference: newId('ref'), reason: 'test top-up', actorLabel: 'test' }, new Date()),
    );

  it('counts every recorded live verification, and the businesses that paid (a grant is not a sale, a test-mode check not a verification served)', async () => {
    expect(await countFigures(t.ctx.db)).toEqual({ verifications: 0, businesses: 0 });
    await addVerifications(businessIds[0]!, 3);
    await addVerifications(businessIds[0]!, 5, false);
    await topUp(businessIds[0]!);
    await topUp(businessIds[0]!);
    await fund(t.ctx, businessIds[1]!, 10_000);
    expect(await countFigures(t.ctx.db)).toEqual({ verifications: 3, businesses: 1 });
  });

  it('GET /api/site/figures is public, and leaves figures out while they are small', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/site/figures' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ verifications: null, businesses: null });
    expect(res.headers['cache-control']).toBe('public, max-age=600');
  });

  it('counts at most once an hour: answers the cached figures, then recounts in the background', async () => {
    let clock = 0;
    const source = createFiguresSource(t.ctx.db, silent, { now: () => clock });
    const first = await source.get();
    await addVerifications(businessIds[1]!, FIGURE_THRESHOLDS.verifications + 2_345);
    clock = 59 * 60_000;
    expect(await source.get()).toEqual(first);
    clock = 60 * 60_000;
    // Past the hour: the stale figures still answer at once while the recount runs…
    expect(await source.get()).toEqual(first);
    // …and the next request has the new ones, rounded down.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect.poll(() => source.get()).toEqual({ verifications: 12_000, businesses: null });
  });
});
