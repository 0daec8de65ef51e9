import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LunaAnswer, LunaChatBody } from '@common/contract/luna';
import { loadCurrentUser } from '../auth/guards';
import * as service from './service';

/** Questions per minute, per signed-in person, or per address for a signed-out visitor. */
export const LUNA_MESSAGES_PER_MINUTE = 20;

/**
 * The limiter's key: the person when signed in (people behind one office NAT or proxy each have
 * their own budget), else the address — signed-out visitors reach Luna only from /contact, with
 * no session to count by.
 */
function lunaLimitKey(request: FastifyRequest): string {
  return request.currentUser ? `luna:user:${request.currentUser.id}` : `luna:address:${request.ip}`;
}

/**
 * POST /api/luna/chat (SPEC §7). The body's businessId and context are accepted for the
 * widget's sake but never trusted: account facts come from the session's own user, if any.
 */
export async function lunaRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/luna/chat',
    {
      // The session is read before the limiter (its hook runs after the route's own onRequest
      // hooks), so the limit can count per person.
      onRequest: [
        async (request) => {
          await loadCurrentUser(request);
        },
      ],
      config: { rateLimit: { max: LUNA_MESSAGES_PER_MINUTE, timeWindow: '1 minute', keyGenerator: lunaLimitKey } },
      schema: { body: LunaChatBody, response: { 200: LunaAnswer } },
    },
    async (request) => service.answer(app.ctx, await loadCurrentUser(request), request.body.message, (err) => request.log.warn({ err }, 'luna model failed; using the retrieval answer')),
  );
}
