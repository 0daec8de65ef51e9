import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../auth/guards';
import { perUser } from '../authenticator/guard';
import { storableText } from '../verify/schemas';
import * as service from './service';

/**
 * POST /api/luna/chat (SPEC §7). The body's businessId and context are accepted for the
 * widget's sake but never trusted: account facts come from the session's own user.
 */
export async function lunaRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/luna/chat',
    {
      onRequest: [requireUser],
      config: { rateLimit: perUser(20, '1 minute') },
      schema: {
        body: z.object({
          message: storableText().trim().min(1, 'Type a question.').max(2000),
          businessId: z.string().max(64).nullish(),
          context: z
            .object({
              userId: z.string().max(64).nullish(),
              hasApiKey: z.boolean().nullish(),
              messageHistory: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().max(4000) })).max(5).nullish(),
            })
            .nullish(),
        }),
      },
    },
    async (request) => service.answer(app.ctx, request.currentUser, request.body.message, (err) => request.log.warn({ err }, 'luna model failed; using the retrieval answer')),
  );
}
