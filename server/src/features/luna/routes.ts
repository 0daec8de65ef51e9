import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LunaAnswer, LunaChatBody } from '@common/contract/luna';
import { loadCurrentUser } from '../auth/guards';
import { perUser } from '../authenticator/guard';
import * as service from './service';

/**
 * POST /api/luna/chat (SPEC §7). The body's businessId and context are accepted for the
 * widget's sake but never trusted: account facts come from the session's own user, if any.
 */
export async function lunaRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/luna/chat',
    {
      // Open to visitors of /contact too (no account facts then); limited per person or address.
      config: { rateLimit: perUser(20, '1 minute') },
      schema: { body: LunaChatBody, response: { 200: LunaAnswer } },
    },
    async (request) => service.answer(app.ctx, await loadCurrentUser(request), request.body.message, (err) => request.log.warn({ err }, 'luna model failed; using the retrieval answer')),
  );
}
