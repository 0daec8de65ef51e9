import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CreateOrderBody,
  NotificationIdParams,
  NotificationList,
  PaymentConfig,
  PaymentNotification,
  PaymentRequest,
  PaymentRequestBody,
  QrOptions,
  RazorpayOrder,
  VerifiedPayment,
  VerifyPaymentBody,
} from '@common/contract/payments';
import { z } from 'zod';
import { requireUser } from '../auth/guards';
import * as checkout from './checkout';
import * as service from './service';

/** Per signed-in user rather than per address: an office behind one NAT is many users. */
const perUser = (max: number) => ({
  rateLimit: { max, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => request.currentUser?.id ?? request.ip },
});

/** Buying credits, business side (session cookie): bank/UPI QR, payment claims, notices, Razorpay. */
export async function paymentRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);
  const ctx = app.ctx;

  r.get('/api/business/payment-config', { schema: { response: { 200: PaymentConfig } } }, async () => service.paymentConfig(ctx.config));

  r.get('/api/business/static-qr-options', { config: perUser(30), schema: { response: { 200: QrOptions } } }, async (request) =>
    service.staticQrOptions(ctx, request.currentUser!, request.impersonatedBy),
  );

  r.post(
    '/api/business/payment-requests',
    {
      config: perUser(20),
      schema: { body: PaymentRequestBody, response: { 201: PaymentRequest } },
    },
    async (request, reply) => reply.status(201).send(await service.submitPaymentRequest(ctx, request.currentUser!, request.impersonatedBy, request.body)),
  );

  r.get('/api/business/payment-requests', { schema: { response: { 200: z.array(PaymentRequest) } } }, async (request) => service.listOwnPaymentRequests(ctx, request.currentUser!));

  r.get('/api/business/notifications', { schema: { response: { 200: NotificationList } } }, async (request) => service.listNotifications(ctx, request.currentUser!));

  r.post('/api/business/notifications/:id/read', { schema: { params: NotificationIdParams, response: { 200: PaymentNotification } } }, async (request) =>
    service.markNotificationRead(ctx, request.currentUser!, request.params.id),
  );

  r.post('/api/business/create-order', { config: perUser(20), schema: { body: CreateOrderBody, response: { 200: RazorpayOrder } } }, async (request) =>
    checkout.createOrder(ctx, request.currentUser!, request.impersonatedBy, request.body.amount, request.log),
  );

  r.post(
    '/api/business/verify-payment',
    {
      config: perUser(30),
      schema: { body: VerifyPaymentBody, response: { 200: VerifiedPayment } },
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
