import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../auth/guards';
import { storableText } from '../verify/schemas';
import * as service from './service';

/** Per signed-in user rather than per address: an office behind one NAT is many users. */
const perUser = (max: number) => ({
  rateLimit: { max, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => request.currentUser?.id ?? request.ip },
});
const rupees = z.union([z.number(), z.string().max(20)]);

/** Buying credits, business side (session cookie): bank/UPI QR, payment claims, notices. */
export async function paymentRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);
  const ctx = app.ctx;

  r.get('/api/business/payment-config', async () => service.paymentConfig(ctx.config));

  r.get('/api/business/static-qr-options', { config: perUser(30) }, async (request) =>
    service.staticQrOptions(ctx, request.currentUser!, request.impersonatedBy),
  );

  r.post(
    '/api/business/payment-requests',
    {
      config: perUser(20),
      schema: {
        body: z.object({
          paymentReference: z.string().max(40),
          utr: z.string().max(40),
          amount: rupees,
          notes: storableText().max(500).optional(),
          paymentMethod: z.enum(['upi', 'bank_transfer']).optional(),
        }),
      },
    },
    async (request, reply) => reply.status(201).send(await service.submitPaymentRequest(ctx, request.currentUser!, request.impersonatedBy, request.body)),
  );

  r.get('/api/business/payment-requests', async (request) => service.listOwnPaymentRequests(ctx, request.currentUser!));

  r.get('/api/business/notifications', async (request) => service.listNotifications(ctx, request.currentUser!));

  r.post('/api/business/notifications/:id/read', { schema: { params: z.object({ id: z.string().min(1).max(40) }) } }, async (request) =>
    service.markNotificationRead(ctx, request.currentUser!, request.params.id),
  );
}

