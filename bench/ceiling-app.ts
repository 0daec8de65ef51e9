/**
 * The ceiling: the same stack as POST /api/v1/verify (Fastify + zod body validation + one
 * otpauth TOTP check) with no key lookup, no storage and no transaction. Served on its own by
 * bench/ceiling-server.ts (`npm run bench`) and in-process by bench/instructions-server.ts.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { Secret, TOTP } from 'otpauth';
import { z } from 'zod';

export function buildCeilingApp(base32Secret: string): FastifyInstance {
  const secret = Secret.fromBase32(base32Secret);
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v1/verify',
    { schema: { body: z.object({ user_id: z.string().min(1).max(128), totp_code: z.string().regex(/^\d{6,8}$/) }).strict() } },
    async (request) => {
      const totp = new TOTP({ secret });
      const delta = totp.validate({ token: request.body.totp_code, window: 1 });
      return { verified: delta !== null, status: delta !== null ? 'verified' : 'invalid_code', timestamp: new Date().toISOString() };
    },
  );
  app.get('/healthz', async () => ({ status: 'ok' }));
  return app;
}
