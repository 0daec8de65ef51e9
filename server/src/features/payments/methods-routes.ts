import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paymentMethods } from './methods-service';
import { PaymentMethodsResponse } from '@common/contract/payments';

/** GET /api/payments/methods: public (the /payment-methods page is for visitors too). */
export async function paymentMethodsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config } = app.ctx;
  r.get('/api/payments/methods', { schema: { response: { 200: PaymentMethodsResponse } } }, async () => paymentMethods(config));
}
