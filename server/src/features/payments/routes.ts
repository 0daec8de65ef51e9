import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../auth/guards';
import { storableText } from '../verify/schemas';
import * as checkout from './checkout';
import * as service from './service';

/** Per signed-in user rather than per address: an office behind one NAT is many users. */
const perUser = (max: number) => ({
  rateLimit: { max, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => request.currentUser?.id ?? request.ip },
});
const rupees = z.union([z.number(), z.string().max(20)]);

/** Buying credits, business side (session cookie): bank/UPI QR, payment claims, notices, Razorpay. */
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

  r.post('/api/business/create-order', { config: perUser(20), schema: { body: z.object({ amount: rupees }) } }, async (request) =>
    checkout.createOrder(ctx, request.currentUser!, request.impersonatedBy, request.body.amount, request.log),
  );

  r.post(
    '/api/business/verify-payment',
    {
      config: perUser(30),
      schema: {
        body: z.object({
          razorpay_order_id: z.string().regex(/^order_[A-Za-z0-9]{1,50}$/, 'not a Razorpay order id'),
          razorpay_payment_id: z.string().regex(/^pay_[A-Za-z0-9]{1,50}$/, 'not a Razorpay payment id'),
          razorpay_signature: z.string().max(200),
        }),
      },
    },
    async (request) => checkout.verifyPayment(ctx, request.currentUser!, request.impersonatedBy, request.body),
  );
}

/**
 * Razorpay's webhook, authenticated by `X-Razorpay-Signature` over the exact bytes it sent, so
 * this context keeps the body raw (its own content-type parser; every other route parses JSON).
 */
export async function razorpayWebhookRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const ctx = app.ctx;

  app.post('/api/payments/razorpay/webhook', { config: { rateLimit: { max: 600, timeWindow: '1 minute' } } }, async (request) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const signature = request.headers['x-razorpay-signature'];
    return checkout.handleWebhook(ctx, raw, typeof signature === 'string' ? signature : undefined, request.log);
  });
}
