import {
  AutoRefillBody,
  BusinessDashboard,
  BusinessProfile,
  CreateBusinessBody,
  CreatedBusiness,
  LedgerEntry,
  ModeQuery,
  RegeneratedKey,
  UsageCsvQuery,
} from '@common/contract/business';
import { getTopUpPack, paiseToDecimalString, rupeesToPaise } from '@common/pricing';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { csvField } from '../../lib/csv';
import { AppError } from '../../lib/errors';
import { refuseWhileImpersonating, requireUser } from '../auth/guards';
import { listLedger } from '../credits/repo';
import { listVerificationsBetween } from '../verify/repo';
import { z } from 'zod';
import * as service from './service';

const MAX_EXPORT_ROWS = 100_000;
/** The business dashboard's calls (session cookie). Thin: each handler is one service call. */
export async function businessRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);
  const ctx = app.ctx;

  r.post('/api/business/create', { config: { carriesSecret: true }, schema: { body: CreateBusinessBody, response: { 201: CreatedBusiness } } }, async (request, reply) => {
    const created = await service.createBusiness(ctx, request.currentUser!, request.body.companyName);
    return reply.status(201).send({ ...created.profile, apiKey: created.apiKey, testApiKey: created.testApiKey });
  });

  r.get('/api/business/profile', { schema: { response: { 200: BusinessProfile } } }, async (request) => {
    return service.toProfile(ctx, await service.requireBusiness(ctx, request.currentUser!));
  });

  r.get('/api/business/dashboard', { schema: { querystring: ModeQuery, response: { 200: BusinessDashboard } } }, async (request) =>
    service.dashboard(ctx, request.currentUser!, request.query.mode),
  );

  // ?mode=test replaces the test key (sk_test_…); the live key is untouched, and the reverse.
  r.post('/api/business/api-key/regenerate', { config: { carriesSecret: true }, schema: { querystring: ModeQuery, response: { 200: RegeneratedKey } } }, async (request) => {
    return service.regenerateApiKey(ctx, request.currentUser!, request.impersonatedBy, request.query.mode);
  });

  r.put(
    '/api/business/auto-refill',
    {
      // A payment setting: not for an administrator acting as the owner (DESIGN §4).
      onRequest: [refuseWhileImpersonating('Payment settings cannot be changed while impersonating a user.')],
      schema: { body: AutoRefillBody, response: { 200: BusinessProfile } },
    },
    async (request) => {
      const { enabled, thresholdRupees, packId } = request.body;
      if (!getTopUpPack(packId)) throw new AppError('validation_failed', `Unknown top-up pack "${packId}".`);
      return service.updateAutoRefill(ctx, request.currentUser!, { enabled, thresholdPaise: rupeesToPaise(thresholdRupees), packId });
    },
  );

  r.get('/api/business/ledger', { schema: { response: { 200: z.array(LedgerEntry) } } }, async (request) => {
    const business = await service.requireBusiness(ctx, request.currentUser!);
    const entries = await listLedger(ctx.db, business.id);
    return entries.map((e) => ({ id: e.id, amount: paiseToDecimalString(e.amountPaise), kind: e.kind, reference: e.reference, reason: e.reason, createdAt: e.createdAt.toISOString() }));
  });

  r.get(
    '/api/business/usage.csv',
    { schema: { querystring: UsageCsvQuery } },
    async (request, reply) => {
      const business = await service.requireBusiness(ctx, request.currentUser!);
      const from = new Date(`${request.query.from}T00:00:00.000Z`);
      const to = new Date(new Date(`${request.query.to}T00:00:00.000Z`).getTime() + 86_400_000);
      if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || from >= to) {
        throw new AppError('validation_failed', '"from" must be a date on or before "to".');
      }
      if (to.getTime() - from.getTime() > 366 * 86_400_000) throw new AppError('validation_failed', 'Export at most one year at a time.');
      const livemode = request.query.mode === 'live';
      const rows = await listVerificationsBetween(ctx.db, business.id, livemode, from, to, MAX_EXPORT_ROWS);
      const header = 'verification_id,created_at,user_id,mode,method,purpose,status,cost_inr,response_time_ms,livemode';
      const lines = rows.map((v) =>
        [v.id, v.createdAt.toISOString(), v.externalUserId, v.mode, v.method, v.purpose, v.status, paiseToDecimalString(v.costPaise), v.responseTimeMs, String(livemode)]
          .map(csvField)
          .join(','),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="sixdigit-${livemode ? '' : 'test-'}usage-${request.query.from}-to-${request.query.to}.csv"`)
        .send([header, ...lines].join('\r\n') + '\r\n');
    },
  );
}
