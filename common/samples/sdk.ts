/**
 * The same operations as index.ts, written with the repository's SDKs (sdks/typescript,
 * sdks/python) for the /docs page's "Node SDK" and "Python SDK" tabs. sdks/sdks.test.ts installs
 * both packages the way a developer does and runs every one of these samples against a live
 * server, so a sample that stops working fails the build.
 */
import {
  EXAMPLE_USER_ID,
  jsString,
  jsValue,
  pyString,
  pyValue,
  SAMPLE_LANGUAGE_LABELS,
  SAMPLE_LANGUAGES,
  SAMPLE_OPERATIONS,
  renderSamples,
  type JsonBody,
  type JsonValue,
  type SampleInput,
  type SampleLanguage,
  type SampleOperationId,
} from './index';

export const SDK_LANGUAGES = ['node', 'pythonSdk'] as const;
export type SdkLanguage = (typeof SDK_LANGUAGES)[number];

/** Every tab of the /docs page: the raw HTTP samples, then the SDKs. */
export const DOCS_LANGUAGES = [...SAMPLE_LANGUAGES, ...SDK_LANGUAGES] as const;
export type DocsLanguage = SampleLanguage | SdkLanguage;

export const DOCS_LANGUAGE_LABELS: Readonly<Record<DocsLanguage, string>> = Object.freeze({
  ...SAMPLE_LANGUAGE_LABELS,
  node: 'Node SDK',
  pythonSdk: 'Python SDK',
});

/** How to get each SDK, shown on /docs and in the README. */
export const SDK_INSTALL: Readonly<Record<SdkLanguage, string>> = Object.freeze({
  node: 'cd sdks/typescript && npm pack    # in the Sixdigit repository: builds sixdigit-0.1.0.tgz\nnpm install /path/to/sixdigit-0.1.0.tgz    # in your project (Node 20+, Deno, Workers)',
  pythonSdk: 'pip install ./sdks/python    # from the Sixdigit repository; Python 3.9+, no dependencies',
});

/** What an SDK sample does: a call that answers JSON, a list walked page by page, or a delete. */
type SdkCall =
  | { kind: 'json'; node: (a: Args) => string; python: (a: Args) => string }
  | { kind: 'list'; node: (a: Args) => string; python: (a: Args) => string; idField: string }
  | { kind: 'none'; node: (a: Args) => string; python: (a: Args) => string };

interface Args {
  body: JsonBody;
  userId: string;
  params: Record<string, string>;
  /** Query values as JSON (numbers stay numbers). */
  query: Record<string, JsonValue>;
}

const pyKwargs = (values: Record<string, JsonValue>) =>
  Object.entries(values)
    .map(([k, v]) => `${k}=${pyValue(v, '')}`)
    .join(', ');
/** Query filters on one line (`{ user_id: 'user_42', limit: 20 }`): they are few and short. */
const jsObject = (values: Record<string, JsonValue>) =>
  Object.keys(values).length ? `{ ${Object.entries(values).map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : jsString(k)}: ${jsValue(v, '')}`).join(', ')} }` : '';

const endpoint = (a: Args, literal: (text: string) => string) => literal(a.params.id ?? '');

const SDK_CALLS: Readonly<Partial<Record<SampleOperationId, SdkCall>>> = Object.freeze({
  profile: { kind: 'json', node: () => 'sixdigit.profile()', python: () => 'client.profile()' },
  test: { kind: 'json', node: () => 'sixdigit.testApiKey()', python: () => 'client.test_api_key()' },
  generate: { kind: 'json', node: (a) => `sixdigit.generate(${jsValue(a.body, '  ')})`, python: (a) => `client.generate(${pyKwargs(a.body)})` },
  verify: { kind: 'json', node: (a) => `sixdigit.verify(${jsValue(a.body, '  ')})`, python: (a) => `client.verify(${pyKwargs(a.body)})` },
  verifyStateless: { kind: 'json', node: (a) => `sixdigit.verify(${jsValue(a.body, '  ')})`, python: (a) => `client.verify(${pyKwargs(a.body)})` },
  deleteUser: { kind: 'none', node: (a) => `sixdigit.deleteUser(${jsString(a.userId)})`, python: (a) => `client.delete_user(${pyString(a.userId)})` },
  getUser: { kind: 'json', node: (a) => `sixdigit.getUser(${jsString(a.userId)})`, python: (a) => `client.get_user(${pyString(a.userId)})` },
  getVerification: {
    kind: 'json',
    node: (a) => `sixdigit.getVerification(${jsString(a.params.verification_id ?? '')})`,
    python: (a) => `client.get_verification(${pyString(a.params.verification_id ?? '')})`,
  },
  listUsers: { kind: 'list', idField: 'user_id', node: (a) => `sixdigit.listUsers(${jsObject(a.query)})`, python: (a) => `client.list_users(${pyKwargs(a.query)})` },
  listVerifications: {
    kind: 'list',
    idField: 'verification_id',
    node: (a) => `sixdigit.listVerifications(${jsObject(a.query)})`,
    python: (a) => `client.list_verifications(${pyKwargs(a.query)})`,
  },
  listWebhookEndpoints: {
    kind: 'list',
    idField: 'id',
    node: (a) => `sixdigit.webhookEndpoints.list(${jsObject(a.query)})`,
    python: (a) => `client.webhook_endpoints.list(${pyKwargs(a.query)})`,
  },
  createWebhookEndpoint: {
    kind: 'json',
    node: (a) => `sixdigit.webhookEndpoints.create(${jsValue(a.body, '  ')})`,
    python: (a) => `client.webhook_endpoints.create(${pyKwargs(a.body)})`,
  },
  getWebhookEndpoint: { kind: 'json', node: (a) => `sixdigit.webhookEndpoints.get(${endpoint(a, jsString)})`, python: (a) => `client.webhook_endpoints.get(${endpoint(a, pyString)})` },
  updateWebhookEndpoint: {
    kind: 'json',
    node: (a) => `sixdigit.webhookEndpoints.update(${endpoint(a, jsString)}, ${jsObject(a.body)})`,
    python: (a) => `client.webhook_endpoints.update(${endpoint(a, pyString)}, ${pyKwargs(a.body)})`,
  },
  deleteWebhookEndpoint: { kind: 'none', node: (a) => `sixdigit.webhookEndpoints.delete(${endpoint(a, jsString)})`, python: (a) => `client.webhook_endpoints.delete(${endpoint(a, pyString)})` },
  testWebhookEndpoint: { kind: 'json', node: (a) => `sixdigit.webhookEndpoints.test(${endpoint(a, jsString)})`, python: (a) => `client.webhook_endpoints.test(${endpoint(a, pyString)})` },
  listWebhookEndpointDeliveries: {
    kind: 'list',
    idField: 'id',
    node: (a) => `sixdigit.webhookEndpoints.deliveries(${endpoint(a, jsString)}${Object.keys(a.query).length ? `, ${jsObject(a.query)}` : ''})`,
    python: (a) => `client.webhook_endpoints.deliveries(${[endpoint(a, pyString), pyKwargs(a.query)].filter(Boolean).join(', ')})`,
  },
});

/** True when the operation has SDK samples (every operation should; sdks.test.ts checks). */
export function hasSdkSample(operationId: SampleOperationId): boolean {
  return SDK_CALLS[operationId] !== undefined;
}

function argsOf(operationId: SampleOperationId, input: SampleInput): Args {
  const operation = SAMPLE_OPERATIONS[operationId];
  const rawQuery = input.query ?? operation.exampleQuery ?? {};
  return {
    body: input.body ?? operation.exampleBody ?? {},
    userId: input.pathUserId ?? operation.examplePathUserId ?? EXAMPLE_USER_ID,
    params: { ...operation.examplePathParams, ...input.pathParams },
    query: Object.fromEntries(Object.entries(rawQuery).map(([k, v]) => [k, /^\d+$/.test(v) ? Number(v) : v])),
  };
}

function nodeSample(call: SdkCall, args: Args, input: SampleInput): string {
  const lines = [
    "// npm install sixdigit-0.1.0.tgz (see SDKs). An ES module (.mjs); on a server, read the key from the environment.",
    "import { Sixdigit, SixdigitError } from 'sixdigit';",
    '',
    `const sixdigit = new Sixdigit({ apiKey: ${jsString(input.apiKey)}, baseUrl: ${jsString(input.baseUrl)} });`,
    'try {',
  ];
  if (call.kind === 'json') lines.push(`  const result = await ${call.node(args)};`, '  console.log(JSON.stringify(result, null, 2));');
  if (call.kind === 'none') lines.push(`  await ${call.node(args)};`, "  console.log('deleted');");
  if (call.kind === 'list') {
    lines.push(
      '  // Every page, fetched as you iterate (newest first).',
      `  for await (const item of ${call.node(args)}) {`,
      `    console.log(item.${call.idField});`,
      '  }',
    );
  }
  lines.push(
    '} catch (error) {',
    '  if (!(error instanceof SixdigitError)) throw error;',
    '  console.error(error.status, error.code, error.message);',
    '  process.exit(1);',
    '}',
  );
  return lines.join('\n');
}

function pythonSdkSample(call: SdkCall, args: Args, input: SampleInput): string {
  const lines = [
    '# pip install ./sdks/python (see SDKs). On a server, read the key from the environment.',
    ...(call.kind === 'json' ? ['import json'] : []),
    'import sys',
    '',
    'from sixdigit import Sixdigit, SixdigitError',
    '',
    `client = Sixdigit(${pyString(input.apiKey)}, base_url=${pyString(input.baseUrl)})`,
    'try:',
  ];
  if (call.kind === 'json') lines.push(`    result = ${call.python(args)}`, '    print(json.dumps(result, indent=2))');
  if (call.kind === 'none') lines.push(`    ${call.python(args)}`, '    print("deleted")');
  if (call.kind === 'list') {
    lines.push('    # Every page, fetched as you iterate (newest first).', `    for item in ${call.python(args)}:`, `        print(item[${pyString(call.idField)}])`);
  }
  lines.push('except SixdigitError as error:', '    sys.exit(f"{error.status} {error.code} {error.message}")');
  return lines.join('\n');
}

/** One operation with one SDK; undefined when the operation has no SDK sample. */
export function renderSdkSample(operationId: SampleOperationId, language: SdkLanguage, input: SampleInput): string | undefined {
  const call = SDK_CALLS[operationId];
  if (!call) return undefined;
  const args = argsOf(operationId, input);
  return language === 'node' ? nodeSample(call, args, input) : pythonSdkSample(call, args, input);
}

/** One operation in every tab of /docs (the SDK tabs only where the operation has SDK samples). */
export function renderDocsSamples(operationId: SampleOperationId, input: SampleInput): Partial<Record<DocsLanguage, string>> {
  const samples: Partial<Record<DocsLanguage, string>> = { ...renderSamples(operationId, input) };
  for (const language of SDK_LANGUAGES) {
    const sample = renderSdkSample(operationId, language, input);
    if (sample !== undefined) samples[language] = sample;
  }
  return samples;
}
