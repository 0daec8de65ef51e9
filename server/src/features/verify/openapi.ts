import { TEST_EVENT, WEBHOOK_EVENTS } from '../webhooks/events';

/**
 * What the zod schemas cannot say about the public API, added to the generated document in one
 * place: operation ids, every status an operation can answer with its error codes (an enum per
 * operation), the headers each answer carries, the `oneOf` of POST /verify's bodies, formats,
 * an example per operation and the OpenAPI 3.1 `webhooks`. Served at /api/v1/openapi.json, linted
 * with Redocly's recommended rules and checked against real answers by openapi.contract.test.ts.
 */

// A generated JSON document, walked and completed by key: its shape is the OpenAPI spec's, not a TS type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

interface OperationSpec {
  operationId: string;
  /** error codes per status, besides the ones every operation shares */
  errors: Record<string, string[]>;
  example: unknown;
  /** answers to a retried Idempotency-Key carry Idempotent-Replayed */
  idempotent?: boolean;
  /** the request body's example (operations that take one) */
  requestExample?: unknown;
}

const VERIFICATION_EXAMPLE = {
  verification_id: 'ver_8Jq2x0aZ7bYtLw3KpQ4n',
  user_id: 'user_42',
  mode: 'managed',
  method: 'totp',
  status: 'verified',
  verified: true,
  purpose: 'login',
  cost: '0.10',
  created_at: '2026-11-25T10:00:00.000Z',
  livemode: true,
};
const USER_EXAMPLE = {
  user_id: 'user_42',
  enrolled_at: '2026-11-20T09:30:00.000Z',
  algorithm: 'SHA1',
  digits: 6,
  period: 30,
  purpose: 'login',
  last_verified_at: '2026-11-25T10:00:00.000Z',
  backup_codes_left: 9,
  livemode: true,
};

const ENDPOINT_EXAMPLE = {
  id: 'wh_3kTq8ZpL0aX2mN7vR4sY',
  url: 'https://example.com/hooks/sixdigit',
  events: ['verification.success', 'verification.failed'],
  description: 'Production login service',
  is_active: true,
  disabled_reason: null,
  disabled_at: null,
  created_at: '2026-11-25T10:00:00.000Z',
  last_triggered_at: '2026-11-25T10:05:00.000Z',
  livemode: true,
};
const DELIVERY_EXAMPLE = {
  id: 'msg_2Vx8LkP0qR7tZ1aB9cDe',
  type: 'verification.success',
  status: 'succeeded',
  verification_id: 'ver_8Jq2x0aZ7bYtLw3KpQ4n',
  attempt_count: 2,
  next_attempt_at: null,
  created_at: '2026-11-25T10:00:00.000Z',
  attempts: [
    { attempt_number: 1, status_code: 503, error: null, response_time_ms: 120, created_at: '2026-11-25T10:00:00.100Z' },
    { attempt_number: 2, status_code: 200, error: null, response_time_ms: 85, created_at: '2026-11-25T10:00:01.200Z' },
  ],
};

export const PUBLIC_OPERATIONS: Record<string, OperationSpec> = {
  'get /profile': {
    operationId: 'getProfile',
    errors: {},
    example: { business_id: 'biz_4fR8tYq2LmN0pX7sK1aZ', company_name: 'Acme Payments', balance: '120.50', currency: 'INR', verifications_left: 1205, rate_limit: { requests_per_minute: 1000 }, livemode: true },
  },
  'post /test': { operationId: 'testApiKey', errors: {}, example: { ok: true, business_id: 'biz_4fR8tYq2LmN0pX7sK1aZ', livemode: true } },
  'post /generate': {
    operationId: 'enrolUser',
    errors: { '409': ['conflict'] },
    idempotent: true,
    example: {
      user_id: 'user_42',
      secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      otpauth_uri: 'otpauth://totp/Acme:user_42?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Acme&algorithm=SHA1&digits=6&period=30',
      qr_code: 'data:image/png;base64,iVBORw0KGgo…',
      manual_entry: 'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      backup_codes: ['a1b2c3d4e5', 'f6g7h8i9j0'],
      livemode: true,
    },
  },
  'post /verify': {
    operationId: 'verifyCode',
    errors: { '402': ['insufficient_credits'], '404': ['not_found'], '409': ['conflict'], '429': ['too_many_attempts'] },
    idempotent: true,
    example: {
      verified: true,
      status: 'verified',
      verification_id: 'ver_8Jq2x0aZ7bYtLw3KpQ4n',
      request_id: '4f0c9f5e-2b1a-4c3d-9e8f-7a6b5c4d3e2f',
      timestamp: '2026-11-25T10:00:00.000Z',
      cost: '0.10',
      balance: '120.40',
      livemode: true,
    },
  },
  'delete /users/{user_id}': { operationId: 'deleteUser', errors: { '404': ['not_found'] }, example: null },
  'get /users/{user_id}': { operationId: 'getUser', errors: { '404': ['not_found'] }, example: USER_EXAMPLE },
  'get /users': { operationId: 'listUsers', errors: { '404': ['not_found'] }, example: { data: [USER_EXAMPLE], has_more: false } },
  'get /verifications/{verification_id}': { operationId: 'getVerification', errors: { '404': ['not_found'] }, example: VERIFICATION_EXAMPLE },
  'get /verifications': { operationId: 'listVerifications', errors: { '404': ['not_found'] }, example: { data: [VERIFICATION_EXAMPLE], has_more: true } },
  'get /webhook_endpoints': { operationId: 'listWebhookEndpoints', errors: { '404': ['not_found'] }, example: { data: [ENDPOINT_EXAMPLE], has_more: false } },
  'post /webhook_endpoints': {
    operationId: 'createWebhookEndpoint',
    errors: { '409': ['conflict'] },
    idempotent: true,
    example: { ...ENDPOINT_EXAMPLE, last_triggered_at: null, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    requestExample: { url: 'https://example.com/hooks/sixdigit', events: ['verification.success', 'verification.failed'], description: 'Production login service' },
  },
  'get /webhook_endpoints/{id}': { operationId: 'getWebhookEndpoint', errors: { '404': ['not_found'] }, example: ENDPOINT_EXAMPLE },
  'patch /webhook_endpoints/{id}': {
    operationId: 'updateWebhookEndpoint',
    errors: { '404': ['not_found'] },
    example: { ...ENDPOINT_EXAMPLE, is_active: false },
    requestExample: { is_active: false },
  },
  'delete /webhook_endpoints/{id}': { operationId: 'deleteWebhookEndpoint', errors: { '404': ['not_found'] }, example: null },
  'post /webhook_endpoints/{id}/test': {
    operationId: 'testWebhookEndpoint',
    errors: { '404': ['not_found'], '409': ['conflict'] },
    idempotent: true,
    example: { queued: true, delivery_id: 'msg_2Vx8LkP0qR7tZ1aB9cDe' },
  },
  'get /webhook_endpoints/{id}/deliveries': {
    operationId: 'listWebhookEndpointDeliveries',
    errors: { '404': ['not_found'] },
    example: { data: [DELIVERY_EXAMPLE], has_more: false },
  },
};

const STATUS_TEXT: Record<string, string> = {
  '400': 'Refused as sent: a field, the JSON or the URL',
  '401': 'Missing, invalid or revoked API key',
  '402': 'Balance below ₹0.10; nothing recorded or charged',
  '403': 'API access suspended by the operator',
  '404': 'Not found for your business',
  '409': 'Conflict',
  '413': 'Body too large',
  '414': 'A part of the URL is too long',
  '415': 'The body is not JSON',
  '429': 'Too many requests; see Retry-After',
  '500': 'Something failed on our side; quote request_id',
};

/** The error codes each status carries on every operation (the error handler's and the hooks' answers). */
function sharedErrors(method: string, path: string): Record<string, string[]> {
  const takesBody = method !== 'get';
  return {
    '400': ['bad_request', 'validation_failed', 'invalid_text', ...(takesBody ? ['invalid_json'] : [])],
    '401': ['unauthorized'],
    '403': ['suspended'],
    ...(takesBody ? { '413': ['payload_too_large'], '415': ['unsupported_media_type'] } : {}),
    ...(path.includes('{') ? { '414': ['uri_too_long'] } : {}),
    '429': ['rate_limited'],
    '500': ['internal_error'],
  };
}

const header = (description: string, schema: Json, example?: unknown) => ({ description, schema, ...(example === undefined ? {} : { example }) });

/** Response headers, once; answers refer to them. (`Allow` is on the 405 a wrong method gets: no operation answers it, info says so.) */
const HEADERS: Json = {
  'X-Request-Id': header('This request’s id (yours when you sent a safe X-Request-Id); quote it to support.', { type: 'string' }, '4f0c9f5e-2b1a-4c3d-9e8f-7a6b5c4d3e2f'),
  'RateLimit-Limit': header('Requests per minute allowed for this key.', { type: 'integer', minimum: 0 }, 1000),
  'RateLimit-Remaining': header('Requests left in the current minute.', { type: 'integer', minimum: 0 }, 999),
  'RateLimit-Reset': header('Seconds until the minute resets.', { type: 'integer', minimum: 0 }, 42),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'integer', minimum: 0 }, 30),
  'Idempotent-Replayed': header('"true" when this is the stored answer to an earlier request with the same Idempotency-Key.', { type: 'string', enum: ['true'] }),
  'WWW-Authenticate': header('The Bearer challenge (RFC 6750), with error="invalid_token" when a key was sent but is not one.', { type: 'string' }, 'Bearer realm="sixdigit", error="invalid_token"'),
};
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RATE_LIMIT = { 'RateLimit-Limit': ref('RateLimit-Limit'), 'RateLimit-Remaining': ref('RateLimit-Remaining'), 'RateLimit-Reset': ref('RateLimit-Reset') };

function headersFor(status: string, spec: OperationSpec): Json {
  return {
    'X-Request-Id': ref('X-Request-Id'),
    // A 401 belongs to no key, so it has no budget to report.
    ...(status === '401' ? { 'WWW-Authenticate': ref('WWW-Authenticate') } : RATE_LIMIT),
    ...(status === '429' ? { 'Retry-After': ref('Retry-After') } : {}),
    ...(spec.idempotent && (status.startsWith('2') || status === '409') ? { 'Idempotent-Replayed': ref('Idempotent-Replayed') } : {}),
  };
}

/** The shared envelope (components.schemas.Error), narrowed to this operation's codes for one status. */
function errorSchema(codes: string[]): Json {
  return {
    allOf: [
      { $ref: '#/components/schemas/Error' },
      {
        type: 'object',
        properties: {
          error: {
            type: 'object',
            // The envelope's other fields named again (as any), so strict validators see them as known in this branch too.
            properties: { code: { type: 'string', enum: codes }, message: {}, request_id: {}, doc_url: {}, details: {} },
          },
        },
      },
    ],
  };
}

const DATE_TIME_FIELDS = new Set(['timestamp', 'created_at', 'enrolled_at', 'last_verified_at', 'disabled_at', 'last_triggered_at', 'next_attempt_at']);
const MONEY_FIELDS = new Set(['cost', 'balance']);

/** Formats by field name, everywhere in a schema: date-times and rupee amounts ("0.10"). */
function addFormats(schema: unknown): void {
  if (!schema || typeof schema !== 'object') return;
  const node = schema as Json;
  for (const [name, property] of Object.entries((node.properties ?? {}) as Json)) {
    if (DATE_TIME_FIELDS.has(name)) property.format = 'date-time';
    if (MONEY_FIELDS.has(name)) property.pattern = '^\\d+\\.\\d{2}$';
    addFormats(property);
  }
  for (const key of ['items', 'oneOf', 'anyOf', 'allOf']) {
    const child = node[key];
    if (Array.isArray(child)) child.forEach(addFormats);
    else addFormats(child);
  }
}

/** POST /verify takes one of three bodies; each is listed so a generator types them (`{}` does not type-check). */
function verifyBodies(flat: Json): Json {
  const pick = (title: string, description: string, names: string[], required: string[]) => ({
    title,
    description,
    type: 'object',
    required,
    additionalProperties: false,
    properties: Object.fromEntries(names.map((n) => [n, flat.properties[n]])),
  });
  return {
    description: flat.description,
    oneOf: [
      pick('ManagedTotp', 'An enrolled user’s authenticator code.', ['user_id', 'totp_code', 'window', 'purpose'], ['user_id', 'totp_code']),
      pick('ManagedBackup', 'An enrolled user’s single-use backup code.', ['user_id', 'backup_code', 'purpose'], ['user_id', 'backup_code']),
      pick('Stateless', 'A code checked against a secret you keep (no enrolment at Sixdigit).', ['secret', 'token', 'window', 'purpose'], ['secret', 'token']),
    ],
  };
}

const WEBHOOK_SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'The event’s id: the same on every retry of it; deduplicate on it.', example: 'msg_2Vx8LkP0qR7tZ1aB9cDe' },
  { name: 'webhook-timestamp', description: 'Unix seconds when this attempt was signed; refuse ones far from now (replays).', example: '1795600800' },
  {
    name: 'webhook-signature',
    description: 'Space-separated `v1,<base64 HMAC-SHA256>` of `webhook-id.webhook-timestamp.body`, keyed with your whsec_… secret (Standard Webhooks).',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
];

const WEBHOOK_DATA: Record<string, { description: string; data: Json; example: Json }> = {
  'verification.success': {
    description: 'A billed check accepted the code.',
    data: {
      type: 'object',
      required: ['verification_id', 'user_id', 'purpose', 'status', 'cost', 'response_time_ms'],
      properties: {
        verification_id: { type: 'string' },
        user_id: { type: ['string', 'null'] },
        purpose: { type: ['string', 'null'] },
        status: { type: 'string', enum: ['verified'] },
        cost: { type: 'string' },
        response_time_ms: { type: 'number', minimum: 0 },
      },
    },
    example: { verification_id: 'ver_8Jq2x0aZ7bYtLw3KpQ4n', user_id: 'user_42', purpose: 'login', status: 'verified', cost: '0.10', response_time_ms: 3.2 },
  },
  'verification.failed': {
    description: 'A billed check refused the code (invalid_code, expired, replayed).',
    data: {
      type: 'object',
      required: ['verification_id', 'user_id', 'purpose', 'status', 'cost', 'response_time_ms'],
      properties: {
        verification_id: { type: 'string' },
        user_id: { type: ['string', 'null'] },
        purpose: { type: ['string', 'null'] },
        status: { type: 'string', enum: ['invalid_code', 'expired', 'replayed'] },
        cost: { type: 'string' },
        response_time_ms: { type: 'number', minimum: 0 },
      },
    },
    example: { verification_id: 'ver_8Jq2x0aZ7bYtLw3KpQ4n', user_id: 'user_42', purpose: 'login', status: 'invalid_code', cost: '0.10', response_time_ms: 2.9 },
  },
  'credit.low': {
    description: 'The balance fell below the low-balance threshold.',
    data: {
      type: 'object',
      required: ['balance', 'verifications_left', 'threshold'],
      properties: {
        balance: { type: 'string' },
        verifications_left: { type: 'integer', minimum: 0 },
        threshold: { type: 'string' },
        auto_refill: {
          type: 'object',
          properties: { enabled: { type: 'boolean' }, pack_id: { type: ['string', 'null'] }, pack_amount: { type: ['string', 'null'] } },
        },
      },
    },
    example: { balance: '99.90', verifications_left: 999, threshold: '100.00', auto_refill: { enabled: false, pack_id: null, pack_amount: null } },
  },
  'credit.depleted': {
    description: 'The balance no longer covers one verification.',
    data: { type: 'object', required: ['balance'], properties: { balance: { type: 'string' }, verifications_left: { type: 'integer', minimum: 0 } } },
    example: { balance: '0.05', verifications_left: 0 },
  },
  [TEST_EVENT]: {
    description: 'Sent on request (POST /webhook_endpoints/{id}/test, or the dashboard’s Send test) to one endpoint; never subscribed to.',
    data: {
      type: 'object',
      required: ['message', 'webhook_id'],
      properties: { message: { type: 'string' }, webhook_id: { type: 'string', description: 'The endpoint it was sent to.' } },
    },
    example: { message: 'This is a test event from Sixdigit.', webhook_id: 'wh_3kTq8ZpL0aX2mN7vR4sY' },
  },
};

function webhookSection(): Json {
  return Object.fromEntries(
    [...WEBHOOK_EVENTS, TEST_EVENT].map((event) => {
      const spec = WEBHOOK_DATA[event]!;
      const payload = {
        type: 'object',
        required: ['type', 'event', 'data', 'timestamp', 'verification_id', 'livemode'],
        properties: {
          type: { type: 'string', enum: [event], description: 'The event (Standard Webhooks).' },
          event: { type: 'string', enum: [event], description: 'The same as type (kept for existing receivers).' },
          data: spec.data,
          timestamp: { type: 'string', format: 'date-time', description: 'When the change happened: order deliveries by it (they can arrive out of order).' },
          verification_id: { type: ['string', 'null'] },
          livemode: { type: 'boolean', description: 'false for the events of a test key (sent only to test endpoints); true for live.' },
        },
      };
      addFormats(payload);
      return [
        event,
        {
          post: {
            operationId: `webhook_${event.replace('.', '_')}`,
            summary: `${event}: ${spec.description}`,
            description: 'A signed POST to your endpoint. Deliveries can arrive out of order and more than once: deduplicate on webhook-id, order by timestamp.',
            tags: ['webhooks'],
            parameters: WEBHOOK_SIGNATURE_HEADERS.map((h) => ({ name: h.name, in: 'header', required: true, description: h.description, schema: { type: 'string' }, example: h.example })),
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: payload,
                  example: { type: event, event, data: spec.example, timestamp: '2026-11-25T10:00:00.000Z', verification_id: spec.example.verification_id ?? null, livemode: true },
                },
              },
            },
            responses: { '200': { description: 'Any 2xx acknowledges the delivery; anything else is retried with backoff.' } },
            security: [],
          },
        },
      ];
    }),
  );
}

/** Completes the generated document of the public API (see the comment at the top). */
export function completePublicApiDocument(doc: Json): Json {
  for (const [path, methods] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const [method, op] of Object.entries(methods)) {
      const spec = PUBLIC_OPERATIONS[`${method} ${path}`];
      if (!spec) throw new Error(`openapi: no operation spec for ${method} ${path} (add it to PUBLIC_OPERATIONS)`);
      op.operationId = spec.operationId;
      const codes = sharedErrors(method, path);
      for (const [status, more] of Object.entries(spec.errors)) codes[status] = [...(codes[status] ?? []), ...more];
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        if (status.startsWith('2')) {
          if (response.description === 'Default Response') response.description = status === '204' ? 'Done; no body' : 'Success';
          if (status === '204') delete response.content;
          const media = response.content?.['application/json'];
          if (media && spec.example !== null) media.example = spec.example;
          addFormats(media?.schema);
        }
      }
      for (const [status, list] of Object.entries(codes)) {
        const existing = op.responses[status] as Json | undefined;
        // The route's own wording when it names every code; otherwise one generated from the codes.
        const own = existing?.description as string | undefined;
        const unique = [...new Set(list)];
        const description = own && unique.every((code) => own.includes(code)) ? own : `${STATUS_TEXT[status] ?? 'Error'} (${unique.join(', ')})`;
        op.responses[status] = {
          description,
          content: {
            'application/json': {
              schema: errorSchema([...new Set(list)]),
              example: { error: { code: list[0], message: `${STATUS_TEXT[status] ?? 'Error'}.`, request_id: '4f0c9f5e-2b1a-4c3d-9e8f-7a6b5c4d3e2f', doc_url: `https://sixdigit.example/docs#error-${list[0]}` } },
            },
          },
        };
      }
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) response.headers = headersFor(status, spec);
      for (const parameter of op.parameters ?? []) {
        // zod's date-time regex is unreadable in the docs; the format says the same.
        if (parameter.in === 'query' && /^created_/.test(parameter.name)) {
          parameter.schema.format = 'date-time';
          delete parameter.schema.pattern;
        }
      }
      if (method === 'post' && path === '/verify') {
        op.requestBody.content['application/json'].schema = verifyBodies(op.requestBody.content['application/json'].schema);
        op.requestBody.content['application/json'].example = { user_id: 'user_42', totp_code: '123456' };
      } else if (op.requestBody) {
        op.requestBody.content['application/json'].example = spec.requestExample ?? { user_id: 'user_42' };
      }
    }
  }
  doc.components ??= {};
  doc.components.headers = HEADERS;
  // Only the envelope is shared by name (the docs page reads it); zod's input twin is not used.
  for (const name of Object.keys(doc.components.schemas ?? {})) if (name.endsWith('Input')) delete doc.components.schemas[name];
  // Open objects: each operation narrows `code` with allOf, and the envelope may gain fields.
  for (const node of [doc.components.schemas?.Error, doc.components.schemas?.Error?.properties?.error]) {
    if (node) {
      delete node.additionalProperties;
      delete node.unevaluatedProperties;
    }
  }
  const envelope = doc.components.schemas?.Error?.properties?.error;
  if (envelope?.properties?.doc_url) envelope.properties.doc_url.format = 'uri';
  doc.webhooks = webhookSection();
  doc.tags = [
    { name: 'account', description: 'Your key, balance and limits.' },
    { name: 'enrolment', description: 'Enrol, look up and remove your users.' },
    { name: 'verification', description: 'Check codes and look up the checks.' },
    { name: 'webhook endpoints', description: 'Where your events are sent: add, change, pause, test and remove endpoints; read their delivery logs.' },
    { name: 'webhooks', description: 'Signed events sent to your endpoints (Standard Webhooks).' },
  ];
  return doc;
}
