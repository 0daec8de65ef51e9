import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from './errors';

/**
 * Text the API accepts is well-formed Unicode without NUL, everywhere, in one place: the JSON
 * parser refuses bytes that are not UTF-8 (instead of turning them into U+FFFD), and a
 * preValidation hook refuses any string in the body, query or path parameters — keys included —
 * that holds a lone surrogate (`"\ud800"` in JSON; it breaks encodeURIComponent, QR codes and
 * PostgreSQL), answered 400 `invalid_text`, or U+0000 (well-formed, but PostgreSQL text cannot
 * store it), answered 400 `validation_failed` as the per-field `storableText` rule always did.
 */
export function installWellFormedText(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new AppError('invalid_text', 'The body is not valid UTF-8.'), undefined);
      return;
    }
    parseJson(request, text, done);
  });
  app.addHook('preValidation', refuseIllFormedText);
}

function refuseIllFormedText(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const where = illFormedIn(request.body, 'body') ?? illFormedIn(request.query, 'query') ?? illFormedIn(request.params, 'path');
  if (where === null) return done();
  if (where.nul) return done(new AppError('validation_failed', `${where.at} must not contain NUL (U+0000) characters.`));
  done(new AppError('invalid_text', `${where.at} is not valid Unicode text (it holds a lone UTF-16 surrogate).`));
}

/** String.prototype.isWellFormed is in Node 20, not yet in TypeScript's ES2023 lib. */
const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed() && !s.includes('\u0000');

export interface Refused {
  /** e.g. `The body field "label"` */
  at: string;
  /** a NUL (else a lone surrogate) */
  nul: boolean;
}

const refused = (at: string, s: string): Refused => ({ at, nul: (s as unknown as { isWellFormed(): boolean }).isWellFormed() });

/**
 * Where the first refused string is and why, or null. Iterative, so a deeply nested body cannot
 * overflow the stack; it allocates only the stack of containers it visits.
 */
export function illFormedIn(value: unknown, part: string): Refused | null {
  if (typeof value === 'string') return wellFormed(value) ? null : refused(`The ${part}`, value);
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return null;
  const stack: object[] = [value];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (Array.isArray(node)) {
      for (const item of node) {
        if (typeof item === 'string') {
          if (!wellFormed(item)) return refused(`A ${part} list item`, item);
        } else if (item !== null && typeof item === 'object') stack.push(item);
      }
      continue;
    }
    for (const key in node) {
      if (!wellFormed(key)) return refused(`A ${part} field name`, key);
      const item = (node as Record<string, unknown>)[key];
      if (typeof item === 'string') {
        if (!wellFormed(item)) return refused(`The ${part} field "${key.slice(0, 40)}"`, item);
      } else if (item !== null && typeof item === 'object') stack.push(item);
    }
  }
  return null;
}
