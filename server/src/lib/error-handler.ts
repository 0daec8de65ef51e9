import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, envelope, type ErrorDetail } from './errors';

/** The readable sentence and the per-field list of one validation error (zod's issues). */
function describeValidation(error: FastifyError): { message: string; details: ErrorDetail[] } {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const details = error.validation.map((issue) => ({
      path: issue.instancePath.replace(/^\//, '').replace(/\//g, '.'),
      message: issue.message ?? 'is not valid',
    }));
    const parts = details.map((d) => `${d.path || error.validationContext || 'request'}: ${d.message}`);
    return { message: `Invalid ${error.validationContext ?? 'request'}: ${parts.join('; ')}`, details };
  }
  return { message: error.message, details: [{ path: '', message: error.message }] };
}

/** Maps every error to the one envelope. Internals of a 500 are logged, never sent. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const docsBase = request.server.ctx.config.publicUrl;
    const send = (status: number, code: string, message: string, details?: ErrorDetail[]) =>
      reply.status(status).send(envelope(code, message, request.id, { docsBase, details }));

    if (error instanceof AppError) {
      reply.headers(error.headers);
      return send(error.status, error.code, error.message, error.details);
    }
    if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
      const { message, details } = describeValidation(error);
      return send(400, 'validation_failed', message, details);
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(413, 'payload_too_large', 'The request body is larger than this endpoint accepts.');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(415, 'unsupported_media_type', 'Send the body as application/json.');
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return send(400, 'invalid_json', 'The body is empty but the content type says JSON.');
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return send(400, 'invalid_json', 'The body is not valid JSON.');
    }
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return send(400, 'invalid_json', 'The body is not valid JSON.');
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return send(429, 'rate_limited', error.message || 'Too many requests.');
    if (status >= 400 && status < 500) {
      const code = status === 404 ? 'not_found' : status === 405 ? 'method_not_allowed' : 'bad_request';
      return send(status, code, error.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(500, 'internal_error', 'Something went wrong on our side. Quote the request id if you contact support.');
  });
}
