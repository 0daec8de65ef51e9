import { Ajv2020 } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

type Json = Record<string, any>;

/** The headers the document must declare wherever an answer carries them. */
const OUR_HEADERS = ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'idempotent-replayed', 'www-authenticate'];

interface Operation {
  key: string;
  pattern: RegExp;
  method: string;
  responses: Record<string, Json>;
}

/**
 * Checks every answer of a documented `/api/v1` operation against the served OpenAPI document:
 * the status is listed, the body matches its schema, and each of our headers it carries is
 * declared for that status. A violation throws from `inject`, so the test that caused it fails
 * and names it. Paths no operation matches (a 405, a 404 for an unknown path) are not checked.
 */
export function checkAnswersAgainstDocument(app: FastifyInstance): void {
  let operations: Operation[] | undefined;
  let ajv: Ajv2020 | undefined;
  const validators = new Map<string, ReturnType<Ajv2020['compile']>>();

  const load = () => {
    const doc = app.swagger() as Json;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi.json', components: doc.components }, 'openapi.json');
    operations = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        key: `${method} ${path}`,
        method: method.toUpperCase(),
        pattern: new RegExp(`^/api/v1${path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
        responses: op.responses as Record<string, Json>,
      })),
    );
  };

  const check = (method: string, url: string, res: LightMyRequestResponse) => {
    const path = url.split('?')[0] ?? '';
    if (!path.startsWith('/api/v1/')) return;
    if (!operations) load();
    const op = operations!.find((o) => o.method === method && o.pattern.test(path));
    if (!op) return;
    const status = String(res.statusCode);
    const response = op.responses[status];
    const where = `${op.key} answered ${status}`;
    if (!response) throw new Error(`OpenAPI contract: ${where}, a status the document does not list (it lists ${Object.keys(op.responses).join(', ')})`);
    const declared = new Set(Object.keys(response.headers ?? {}).map((h) => h.toLowerCase()));
    for (const name of OUR_HEADERS) {
      if (res.headers[name] !== undefined && !declared.has(name)) throw new Error(`OpenAPI contract: ${where} with header ${name}, not declared for that status`);
    }
    const schema = response.content?.['application/json']?.schema;
    if (!schema) {
      if (res.body.length > 0) throw new Error(`OpenAPI contract: ${where} with a body, where the document says none`);
      return;
    }
    const id = `${op.key} ${status}`;
    let validate = validators.get(id);
    if (!validate) {
      // '#/components/…' refs resolve in the document registered above.
      const rebased = JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/'));
      validate = ajv!.compile(rebased);
      validators.set(id, validate);
    }
    let body: unknown;
    try {
      body = res.json();
    } catch {
      throw new Error(`OpenAPI contract: ${where} with a body that is not JSON`);
    }
    if (!validate(body)) throw new Error(`OpenAPI contract: ${where} with a body that does not match its schema: ${ajv!.errorsText(validate.errors)} in ${res.body.slice(0, 300)}`);
  };

  const inject = app.inject.bind(app) as (options: InjectOptions | string) => Promise<LightMyRequestResponse>;
  // Only the promise form is used by the tests; the chainable form is left as it is.
  (app as { inject: unknown }).inject = (options?: InjectOptions | string) => {
    if (options === undefined) return inject(undefined as never);
    return inject(options).then((res) => {
      const method = typeof options === 'string' ? 'GET' : String(options.method ?? 'GET').toUpperCase();
      const url = typeof options === 'string' ? options : String(options.url ?? options.path ?? '');
      check(method, url, res);
      return res;
    });
  };
}
