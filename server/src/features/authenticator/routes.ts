import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AccountIdParams,
  AccountInputBody,
  AuthenticatorAccount,
  GenerateAccountCodeBody,
  GeneratedAccountCode,
  ImportOutcome,
  ScanResult,
} from '@common/contract/authenticator';
import { NoContent } from '@common/contract/shared';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { requireUser } from '../auth/guards';
import { accountTotpRoutes } from '../totp/routes';
import { perUser, refuseWhileImpersonating } from './guard';
import { MAX_UPLOAD_BYTES } from './qr-image';
import * as service from './service';

const IMAGE_FIELD = 'qr-image';

/** Every /api/user/* call of the account TOTP and the personal authenticator (session cookie). */
export async function userTotpRoutes(app: FastifyInstance): Promise<void> {
  await app.register(accountTotpRoutes);
  await app.register(authenticatorRoutes);
}

async function authenticatorRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireUser);
  if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart);
  const ctx = app.ctx;

  r.get('/api/user/totp-accounts', { onRequest: [refuseWhileImpersonating], config: { carriesSecret: true }, schema: { response: { 200: z.array(AuthenticatorAccount) } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.listAccounts(ctx, request.currentUser!)),
  );

  r.post(
    '/api/user/totp-accounts',
    { onRequest: [refuseWhileImpersonating], config: { carriesSecret: true, rateLimit: perUser(60, '1 minute') }, schema: { body: AccountInputBody, response: { 201: AuthenticatorAccount } } },
    async (request, reply) => reply.status(201).header('cache-control', 'no-store').send(await service.addAccount(ctx, request.currentUser!, request.body)),
  );

  r.post(
    '/api/user/totp-accounts/import',
    {
      onRequest: [refuseWhileImpersonating],
      config: { carriesSecret: true, rateLimit: perUser(10, '1 minute') },
      bodyLimit: 1024 * 1024,
      schema: { body: z.object({ accounts: z.array(AccountInputBody).min(1).max(service.MAX_ACCOUNTS_PER_USER) }), response: { 200: ImportOutcome } },
    },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await service.importAccounts(ctx, request.currentUser!, request.body.accounts)),
  );

  r.delete('/api/user/totp-accounts/:id', { onRequest: [refuseWhileImpersonating], schema: { params: AccountIdParams, response: { 204: NoContent } } }, async (request, reply) => {
    await service.deleteAccount(ctx, request.currentUser!, request.params.id);
    return reply.status(204).send();
  });

  // SPEC.md §7 calls this every second per account; the page no longer does (DESIGN.md §9).
  r.post(
    '/api/user/generate-totp-code',
    { onRequest: [refuseWhileImpersonating], config: { rateLimit: perUser(300, '1 minute') }, schema: { body: GenerateAccountCodeBody, response: { 200: GeneratedAccountCode } } },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await service.generateAccountCode(ctx, request.currentUser!, request.body.accountId)),
  );

  r.post('/api/user/scan-qr', { config: { carriesSecret: true, rateLimit: perUser(20, '1 minute') }, schema: { response: { 200: ScanResult } } }, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await service.scanQr(await uploadedImage(request))),
  );
}

/** The bytes of the `qr-image` part of a multipart upload, at most MAX_UPLOAD_BYTES. */
async function uploadedImage(request: FastifyRequest): Promise<Buffer> {
  const missing = () => new AppError('validation_failed', `Attach the image as the form field "${IMAGE_FIELD}".`);
  if (!request.isMultipart()) throw new AppError('unsupported_media_type', `Send the image as multipart/form-data in the field "${IMAGE_FIELD}".`);
  let image: Buffer | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12 } })) {
      if (part.type === 'file' && part.fieldname === IMAGE_FIELD) image = await part.toBuffer();
      else if (part.type === 'file') part.file.resume();
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('payload_too_large', `The image is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw new AppError('validation_failed', `Send one image, in the field "${IMAGE_FIELD}".`);
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_NO_FORM_DATA') throw missing();
    // Anything else here is the body itself: cut short, no boundary, not multipart at all.
    request.log.info({ err }, 'unreadable multipart upload');
    throw new AppError('bad_request', 'The upload is incomplete or not valid multipart/form-data. Try again.');
  }
  if (!image) throw missing();
  if (image.length === 0) throw new AppError('validation_failed', 'The uploaded image is empty.');
  return image;
}
