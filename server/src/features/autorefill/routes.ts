import { BusinessProfile, MandateBody, MandateConfirmBody, MandateOrder } from '@common/contract/business';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { refuseWhileImpersonating, requireUser } from '../auth/guards';
import { requireBusiness, toProfile } from '../business/service';
import { verifyPayment } from '../payments/checkout';
import * as service from './service';

const perUser = (max: number) => ({
  rateLimit: { max, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => request.currentUser?.id ?? request.ip },
});
const notWhileImpersonating = refuseWhileImpersonating('Payment settings cannot be changed while impersonating a user.');

/** Saving and removing the card/UPI mandate auto-refill charges (Razorpay recurring payments). */
export async function autoRefillRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);
  const ctx = app.ctx;

  r.post(
    '/api/business/auto-refill/mandate',
    { onRequest: [notWhileImpersonating], config: perUser(10), schema: { body: MandateBody, response: { 200: MandateOrder } } },
    async (request) => service.startMandate(ctx, request.currentUser!, request.impersonatedBy, request.body, request.log),
  );

  r.post(
    '/api/business/auto-refill/mandate/confirm',
    { onRequest: [notWhileImpersonating], config: perUser(20), schema: { body: MandateConfirmBody, response: { 200: BusinessProfile } } },
    async (request) => {
      const user = request.currentUser!;
      await service.confirmMandate(ctx, user, request.impersonatedBy, request.body, (paid) => verifyPayment(ctx, user, request.impersonatedBy, paid), request.log);
      return toProfile(ctx, await requireBusiness(ctx, user));
    },
  );

  r.delete(
    '/api/business/auto-refill/mandate',
    { onRequest: [notWhileImpersonating], config: perUser(10), schema: { response: { 200: BusinessProfile } } },
    async (request) => {
      await service.removeMandate(ctx, request.currentUser!, request.impersonatedBy, request.log);
      return toProfile(ctx, await requireBusiness(ctx, request.currentUser!));
    },
  );
}
