import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EmailPreferences, OneClickParams, UnsubscribeBody, UnsubscribeQuery, UnsubscribeState, UpdateEmailPreferenceBody } from '@common/contract/mail';
import { NoContent } from '@common/contract/shared';
import { refuseWhileImpersonating, requireUser } from '../auth/guards';
import { perUser } from '../authenticator/guard';
import * as service from './service';

/** Tokens are unguessable; the per-address limit only keeps link checkers and scanners polite. */
const byAddress = (max: number) => ({ max, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => `mail-unsubscribe:${request.ip}` });

/** E-mail preferences (signed in) and the signed unsubscribe links in mails (signed out). */
export async function mailRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  // RFC 8058 lets the one-click POST be multipart/form-data too; its body carries nothing we need.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) => done(null, {}));

  r.get('/api/user/email-preferences', { onRequest: [requireUser], schema: { response: { 200: EmailPreferences } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.preferences(ctx, request.currentUser!)),
  );

  // A person's own choice: not made for them by an administrator acting as them.
  r.put(
    '/api/user/email-preferences',
    {
      onRequest: [requireUser, refuseWhileImpersonating('E-mail preferences can only be changed by the person, not while impersonating them.')],
      config: { rateLimit: perUser(30, '1 minute') },
      schema: { body: UpdateEmailPreferenceBody, response: { 200: EmailPreferences } },
    },
    async (request) => service.setPreference(ctx, request.currentUser!, request.body.category, request.body.enabled),
  );

  // The unsubscribe page (signed out): what the link is for, then the person's choice.
  r.get('/api/mail/unsubscribe', { config: { rateLimit: byAddress(60) }, schema: { querystring: UnsubscribeQuery, response: { 200: UnsubscribeState } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.unsubscribeState(ctx, request.query.token)),
  );
  r.post('/api/mail/unsubscribe', { config: { rateLimit: byAddress(30) }, schema: { body: UnsubscribeBody, response: { 200: UnsubscribeState } } }, async (request) =>
    service.setByToken(ctx, request.body.token, request.body.enabled, 'page'),
  );

  // RFC 8058 one-click: the mail client POSTs `List-Unsubscribe=One-Click` to the List-Unsubscribe
  // URL, from its own servers, without cookies; the token is the authority (exempt from the CSRF
  // guard in auth/csrf.ts). A GET changes nothing: link scanners fetch URLs in mails.
  r.post('/api/mail/one-click/:token', { config: { rateLimit: byAddress(30) }, schema: { params: OneClickParams, response: { 204: NoContent } } }, async (request, reply) => {
    await service.setByToken(ctx, request.params.token, false, 'one-click');
    return reply.status(204).send();
  });
}
