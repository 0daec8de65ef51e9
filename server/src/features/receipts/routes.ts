import { BillingBody, BillingDetails, PaymentHistory, ReceiptParams } from '@common/contract/business';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { refuseWhileImpersonating, requireUser } from '../auth/guards';
import * as service from './service';

/** Billing details, payment history and receipt PDFs of the signed-in owner's business (session cookie). */
export async function receiptRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);
  const ctx = app.ctx;

  r.get('/api/business/billing', { schema: { response: { 200: BillingDetails } } }, async (request) => service.billingDetails(ctx, request.currentUser!));

  r.put(
    '/api/business/billing',
    {
      // The business's tax identity is the owner's declaration, not an administrator's (DESIGN §4).
      onRequest: [refuseWhileImpersonating('Billing details cannot be changed while impersonating a user.')],
      schema: { body: BillingBody, response: { 200: BillingDetails } },
    },
    async (request) => {
      const { gstin, billingState, billingAddress } = request.body as { gstin: string | null; billingState: string | null; billingAddress: string | null };
      return service.updateBillingDetails(ctx, request.currentUser!, { gstin, billingState, billingAddress });
    },
  );

  r.get('/api/business/payments', { schema: { response: { 200: PaymentHistory } } }, async (request) => service.paymentHistory(ctx, request.currentUser!));

  r.get('/api/business/receipts/:id.pdf', { schema: { params: ReceiptParams } }, async (request, reply) => {
    const { fileName, pdf } = await service.receiptPdf(ctx, request.currentUser!, request.params.id);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      // a tax document of one business: never kept by a shared cache
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(pdf));
  });
}
