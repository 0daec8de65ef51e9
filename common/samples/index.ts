/**
 * Code samples for the public API, written ONCE and shown everywhere: the enterprise docs, the
 * main landing page's docs teaser and Luna's answers. `samples.run.test.ts` renders every
 * operation in every language with a live server's URL and a real key and executes it (curl,
 * node, python3, php), so a sample that stops working fails the build.
 *
 * Each sample reads the response as JSON and prints it; on an HTTP error it prints the error
 * envelope's code and message to stderr and exits non-zero — what a careful caller would do.
 */

export const SAMPLE_LANGUAGES = ['curl', 'javascript', 'python', 'php'] as const;
export type SampleLanguage = (typeof SAMPLE_LANGUAGES)[number];

export const SAMPLE_LANGUAGE_LABELS: Readonly<Record<SampleLanguage, string>> = Object.freeze({
  curl: 'cURL',
  javascript: 'JavaScript',
  python: 'Python',
  php: 'PHP',
});

/** Fence/highlighter names for Markdown answers. */
export const SAMPLE_LANGUAGE_FENCES: Readonly<Record<SampleLanguage, string>> = Object.freeze({
  curl: 'bash',
  javascript: 'javascript',
  python: 'python',
  php: 'php',
});

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonBody = { [key: string]: JsonValue };

export type SampleOperationId =
  | 'profile'
  | 'test'
  | 'generate'
  | 'verify'
  | 'verifyStateless'
  | 'deleteUser'
  | 'getUser'
  | 'listUsers'
  | 'getVerification'
  | 'listVerifications'
  | 'listWebhookEndpoints'
  | 'createWebhookEndpoint'
  | 'getWebhookEndpoint'
  | 'updateWebhookEndpoint'
  | 'deleteWebhookEndpoint'
  | 'testWebhookEndpoint'
  | 'listWebhookEndpointDeliveries';

export interface SampleOperation {
  readonly id: SampleOperationId;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path relative to the API base URL, as the OpenAPI document writes it. */
  readonly path: string;
  /** The body shown when the caller gives none (null: the operation takes no body). */
  readonly exampleBody: JsonBody | null;
  /** Example value of the `{user_id}` path parameter, when the path has one. */
  readonly examplePathUserId?: string;
  /** Example values of other `{name}` path parameters. */
  readonly examplePathParams?: Readonly<Record<string, string>>;
  /** Example query parameters (list operations). */
  readonly exampleQuery?: Readonly<Record<string, string>>;
  /** Set on an operation's second sample: what makes it different. */
  readonly caption?: string;
}

export const EXAMPLE_USER_ID = 'user_42';
export const EXAMPLE_VERIFICATION_ID = 'ver_8Jq2x0aZ7bYtLw3KpQ4n';
export const EXAMPLE_WEBHOOK_ENDPOINT_ID = 'wh_3kTq8ZpL0aX2mN7vR4sY';
const endpointParams = { id: EXAMPLE_WEBHOOK_ENDPOINT_ID };

export const SAMPLE_OPERATIONS: Readonly<Record<SampleOperationId, SampleOperation>> = Object.freeze({
  profile: { id: 'profile', method: 'GET', path: '/profile', exampleBody: null },
  test: { id: 'test', method: 'POST', path: '/test', exampleBody: null },
  generate: { id: 'generate', method: 'POST', path: '/generate', exampleBody: { user_id: EXAMPLE_USER_ID, issuer: 'Acme' } },
  verify: { id: 'verify', method: 'POST', path: '/verify', exampleBody: { user_id: EXAMPLE_USER_ID, totp_code: '123456' } },
  // The same call for callers who keep the secret themselves (no enrolment at Sixdigit).
  verifyStateless: { id: 'verifyStateless', method: 'POST', path: '/verify', exampleBody: { secret: 'JBSWY3DPEHPK3PXP', token: '123456' }, caption: 'Stateless: you keep the secret' },
  deleteUser: { id: 'deleteUser', method: 'DELETE', path: '/users/{user_id}', exampleBody: null, examplePathUserId: EXAMPLE_USER_ID },
  getUser: { id: 'getUser', method: 'GET', path: '/users/{user_id}', exampleBody: null, examplePathUserId: EXAMPLE_USER_ID },
  listUsers: { id: 'listUsers', method: 'GET', path: '/users', exampleBody: null, exampleQuery: { limit: '20' } },
  getVerification: {
    id: 'getVerification',
    method: 'GET',
    path: '/verifications/{verification_id}',
    exampleBody: null,
    examplePathParams: { verification_id: EXAMPLE_VERIFICATION_ID },
  },
  listVerifications: { id: 'listVerifications', method: 'GET', path: '/verifications', exampleBody: null, exampleQuery: { user_id: EXAMPLE_USER_ID, limit: '20' } },
  listWebhookEndpoints: { id: 'listWebhookEndpoints', method: 'GET', path: '/webhook_endpoints', exampleBody: null, exampleQuery: { limit: '20' } },
  createWebhookEndpoint: {
    id: 'createWebhookEndpoint',
    method: 'POST',
    path: '/webhook_endpoints',
    exampleBody: { url: 'https://example.com/hooks/sixdigit', events: ['verification.success', 'verification.failed'], description: 'Production login service' },
  },
  getWebhookEndpoint: { id: 'getWebhookEndpoint', method: 'GET', path: '/webhook_endpoints/{id}', exampleBody: null, examplePathParams: endpointParams },
  updateWebhookEndpoint: { id: 'updateWebhookEndpoint', method: 'PATCH', path: '/webhook_endpoints/{id}', exampleBody: { is_active: false }, examplePathParams: endpointParams },
  deleteWebhookEndpoint: { id: 'deleteWebhookEndpoint', method: 'DELETE', path: '/webhook_endpoints/{id}', exampleBody: null, examplePathParams: endpointParams },
  testWebhookEndpoint: { id: 'testWebhookEndpoint', method: 'POST', path: '/webhook_endpoints/{id}/test', exampleBody: null, examplePathParams: endpointParams },
  listWebhookEndpointDeliveries: {
    id: 'listWebhookEndpointDeliveries',
    method: 'GET',
    path: '/webhook_endpoints/{id}/deliveries',
    exampleBody: null,
    examplePathParams: endpointParams,
    exampleQuery: { limit: '20' },
  },
});

/** The samples of an OpenAPI operation (method + path), main one first; empty if none. */
export function samplesFor(method: string, path: string): SampleOperation[] {
  const upper = method.toUpperCase();
  return Object.values(SAMPLE_OPERATIONS).filter((op) => op.method === upper && op.path === path);
}

/** The main sample of an OpenAPI operation, if one exists. */
export function sampleOperationFor(method: string, path: string): SampleOperation | undefined {
  return samplesFor(method, path)[0];
}

/** The key shown in docs, where the reader pastes their own. */
export const API_KEY_PLACEHOLDER = 'sk_live_YOUR_API_KEY';

export interface SampleInput {
  /** The API base, e.g. https://sixdigit.example/api/v1 (no trailing slash needed). */
  baseUrl: string;
  /** The key written into the sample: a real key, a placeholder, or a prefix + "…". */
  apiKey: string;
  /** Overrides the operation's example body. */
  body?: JsonBody;
  /** Overrides the `{user_id}` path parameter. */
  pathUserId?: string;
  /** Overrides other `{name}` path parameters. */
  pathParams?: Record<string, string>;
  /** Overrides the example query parameters. */
  query?: Record<string, string>;
}

// ---------------------------------------------------------------------------------------------
// Literals per language (values are data, so they are escaped, never pasted raw)
// ---------------------------------------------------------------------------------------------

const shellSingle = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
export const jsString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
/** JSON strings are valid Python string literals (\uXXXX escapes included). */
export const pyString = (text: string) => JSON.stringify(text);
const phpString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const jsKey = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : jsString(key));

export function jsValue(value: JsonValue, indent: string): string {
  if (typeof value === 'string') return jsString(value);
  if (value === null || typeof value !== 'object') return String(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[${value.map((v) => jsValue(v, inner)).join(', ')}]`;
  const entries = Object.entries(value).map(([k, v]) => `${inner}${jsKey(k)}: ${jsValue(v, inner)},`);
  return entries.length ? `{\n${entries.join('\n')}\n${indent}}` : '{}';
}

export function pyValue(value: JsonValue, indent: string): string {
  if (typeof value === 'string') return pyString(value);
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) return `[${value.map((v) => pyValue(v, inner)).join(', ')}]`;
  const entries = Object.entries(value).map(([k, v]) => `${inner}${pyString(k)}: ${pyValue(v, inner)},`);
  return entries.length ? `{\n${entries.join('\n')}\n${indent}}` : '{}';
}

function phpValue(value: JsonValue, indent: string): string {
  if (typeof value === 'string') return phpString(value);
  if (value === null) return 'null';
  if (typeof value !== 'object') return String(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) return `[${value.map((v) => phpValue(v, inner)).join(', ')}]`;
  const entries = Object.entries(value).map(([k, v]) => `${inner}${phpString(k)} => ${phpValue(v, inner)},`);
  // An empty PHP array encodes as [], so an empty body must be an object.
  return entries.length ? `[\n${entries.join('\n')}\n${indent}]` : 'new stdClass()';
}

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

interface ResolvedRequest {
  method: SampleOperation['method'];
  url: string;
  apiKey: string;
  body: JsonBody | null;
  /** DELETE answers 204 with no body. */
  expectsJson: boolean;
}

function resolveRequest(operation: SampleOperation, input: SampleInput): ResolvedRequest {
  const base = input.baseUrl.replace(/\/+$/, '');
  const userId = input.pathUserId ?? operation.examplePathUserId ?? EXAMPLE_USER_ID;
  const params: Record<string, string> = { ...operation.examplePathParams, ...input.pathParams, user_id: userId };
  const path = operation.path.replace(/\{(\w+)\}/g, (whole, name: string) => (params[name] === undefined ? whole : encodeURIComponent(params[name]!)));
  const query = new URLSearchParams(input.query ?? operation.exampleQuery ?? {}).toString();
  return {
    method: operation.method,
    url: `${base}${path}${query ? `?${query}` : ''}`,
    apiKey: input.apiKey,
    body: operation.exampleBody === null ? null : (input.body ?? operation.exampleBody),
    expectsJson: operation.method !== 'DELETE',
  };
}

function curlSample(r: ResolvedRequest): string {
  const lines = [`curl -sS -X ${r.method} ${shellSingle(r.url)}`, `  -H "Authorization: Bearer ${r.apiKey.replace(/["$`\\]/g, '\\$&')}"`];
  if (r.body) {
    lines.push(`  -H "Content-Type: application/json"`);
    lines.push(`  -d ${shellSingle(JSON.stringify(r.body))}`);
  }
  // --fail-with-body: exit non-zero on 4xx/5xx and still print the error envelope.
  lines.push('  --fail-with-body');
  return lines.join(' \\\n');
}

function javascriptSample(r: ResolvedRequest): string {
  const headers = [`    Authorization: ${jsString(`Bearer ${r.apiKey}`)},`];
  if (r.body) headers.push(`    'Content-Type': 'application/json',`);
  const lines = [
    '// Node 18+ (built-in fetch), run as an ES module (.mjs). On a server, read the key from the environment.',
    `const response = await fetch(${jsString(r.url)}, {`,
    `  method: '${r.method}',`,
    '  headers: {',
    ...headers,
    '  },',
  ];
  if (r.body) lines.push(`  body: JSON.stringify(${jsValue(r.body, '  ')}),`);
  lines.push('});');
  if (r.expectsJson) {
    lines.push(
      'const result = await response.json();',
      'if (!response.ok) {',
      '  console.error(response.status, result.error.code, result.error.message);',
      '  process.exit(1);',
      '}',
      'console.log(JSON.stringify(result, null, 2));',
    );
  } else {
    lines.push(
      'if (!response.ok) {',
      '  const { error } = await response.json();',
      '  console.error(response.status, error.code, error.message);',
      '  process.exit(1);',
      '}',
      'console.log(response.status); // 204: deleted',
    );
  }
  return lines.join('\n');
}

function pythonSample(r: ResolvedRequest): string {
  const headers = [`        "Authorization": ${pyString(`Bearer ${r.apiKey}`)},`];
  if (r.body) headers.push(`        "Content-Type": "application/json",`);
  const lines = [
    '# Python 3, standard library only. On a server, read the key from the environment.',
    'import json',
    'import sys',
    'import urllib.error',
    'import urllib.request',
    '',
  ];
  if (r.body) lines.push(`body = ${pyValue(r.body, '')}`, '');
  lines.push(
    'request = urllib.request.Request(',
    `    ${pyString(r.url)},`,
    `    method="${r.method}",`,
    '    headers={',
    ...headers,
    '    },',
  );
  if (r.body) lines.push('    data=json.dumps(body).encode(),');
  lines.push(')', 'try:', '    with urllib.request.urlopen(request) as response:');
  if (r.expectsJson) lines.push('        print(json.dumps(json.load(response), indent=2))');
  else lines.push('        print(response.status)  # 204: deleted');
  lines.push(
    'except urllib.error.HTTPError as failure:',
    '    error = json.load(failure)["error"]',
    '    sys.exit(f"{failure.code} {error[\'code\']} {error[\'message\']}")',
  );
  return lines.join('\n');
}

function phpSample(r: ResolvedRequest): string {
  const headers = [`Authorization: Bearer ${r.apiKey}`];
  if (r.body) headers.push('Content-Type: application/json');
  const lines = [
    '<?php',
    '// php-cli, no extensions beyond the defaults. On a server, read the key from the environment.',
  ];
  if (r.body) lines.push(`$body = ${phpValue(r.body, '')};`);
  lines.push(
    '$context = stream_context_create([\'http\' => [',
    `    'method' => '${r.method}',`,
    `    'header' => [${headers.map(phpString).join(', ')}],`,
  );
  if (r.body) lines.push(`    'content' => json_encode($body),`);
  lines.push(
    "    'ignore_errors' => true, // read the error envelope of a 4xx/5xx too",
    ']]);',
    `$answer = file_get_contents(${phpString(r.url)}, false, $context);`,
    "$status = (int) explode(' ', $http_response_header[0])[1];",
    'if ($status >= 400) {',
    '    $error = json_decode($answer, true)[\'error\'];',
    '    fwrite(STDERR, "$status {$error[\'code\']} {$error[\'message\']}\\n");',
    '    exit(1);',
    '}',
  );
  if (r.expectsJson) lines.push('echo json_encode(json_decode($answer), JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\\n";');
  else lines.push('echo $status, "\\n"; // 204: deleted');
  return lines.join('\n');
}

/** The sample of one operation in one language, with the given base URL, key and body. */
export function renderSample(operationId: SampleOperationId, language: SampleLanguage, input: SampleInput): string {
  const request = resolveRequest(SAMPLE_OPERATIONS[operationId], input);
  switch (language) {
    case 'curl':
      return curlSample(request);
    case 'javascript':
      return javascriptSample(request);
    case 'python':
      return pythonSample(request);
    case 'php':
      return phpSample(request);
  }
}

/** The public API's base URL on a site origin (`/v1` is an alias of the same routes). */
export function apiBaseUrl(origin: string): string {
  return `${origin.replace(/\/+$/, '')}/api/v1`;
}

/** One operation in every language, e.g. for a tabbed code block. */
export function renderSamples(operationId: SampleOperationId, input: SampleInput): Record<SampleLanguage, string> {
  return Object.fromEntries(SAMPLE_LANGUAGES.map((language) => [language, renderSample(operationId, language, input)])) as Record<
    SampleLanguage,
    string
  >;
}
