/**
 * Reads the OpenAPI document the server generates from its own zod schemas
 * (`GET /api/v1/openapi.json`) into what the docs page shows: the docs cannot drift from the API
 * because they are this document, read at run time.
 */

export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: SchemaObject;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  description?: string;
  example?: unknown;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  additionalProperties?: boolean | SchemaObject;
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
}

interface ParameterObject {
  name: string;
  in: 'header' | 'path' | 'query' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: SchemaObject;
}

interface ResponseObject {
  description?: string;
  content?: Record<string, { schema?: SchemaObject }>;
}

interface OperationObject {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: SchemaObject }> };
  responses?: Record<string, ResponseObject>;
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components?: {
    schemas?: Record<string, SchemaObject>;
    securitySchemes?: Record<string, { type: string; scheme?: string; description?: string }>;
  };
}

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  /** Limits in words: "1–128 characters", "0–10", "pattern ^\d{6,8}$". */
  limits: string[];
  description?: string;
}

export interface ErrorRow {
  status: string;
  description: string;
}

export interface DocOperation {
  /** Anchor id, e.g. "post-verify". */
  id: string;
  method: string;
  path: string;
  summary: string;
  description?: string;
  tag?: string;
  needsApiKey: boolean;
  pathParams: FieldRow[];
  queryParams: FieldRow[];
  headerParams: FieldRow[];
  requestFields: FieldRow[];
  /** What the body schema says about itself (e.g. which fields go together). */
  requestDescription?: string;
  successStatus: string;
  successDescription?: string;
  responseFields: FieldRow[];
  errors: ErrorRow[];
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** zod writes ±Number.MAX_SAFE_INTEGER for "any integer": not a limit worth showing. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

export function resolveSchema(doc: OpenApiDocument, schema: SchemaObject | undefined): SchemaObject {
  let at = schema ?? {};
  for (let hops = 0; at.$ref && hops < 10; hops += 1) {
    const name = at.$ref.replace(/^#\/components\/schemas\//, '');
    at = doc.components?.schemas?.[name] ?? {};
  }
  return at;
}

function typeText(doc: OpenApiDocument, raw: SchemaObject): string {
  const schema = resolveSchema(doc, raw);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map((v) => typeText(doc, v)).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  if (type === 'array') return `${typeText(doc, schema.items ?? {})}[]`;
  return type;
}

function range(min: number | undefined, max: number | undefined, unit = ''): string | null {
  const lo = min !== undefined && Math.abs(min) < UNBOUNDED ? min : undefined;
  const hi = max !== undefined && Math.abs(max) < UNBOUNDED ? max : undefined;
  const suffix = unit ? ` ${unit}` : '';
  if (lo !== undefined && hi !== undefined) return lo === hi ? `exactly ${lo}${suffix}` : `${lo}–${hi}${suffix}`;
  if (lo !== undefined) return `at least ${lo}${suffix}`;
  if (hi !== undefined) return `at most ${hi}${suffix}`;
  return null;
}

function limitsOf(doc: OpenApiDocument, raw: SchemaObject): string[] {
  const schema = resolveSchema(doc, raw);
  const limits = [range(schema.minLength, schema.maxLength, 'characters'), range(schema.minimum, schema.maximum)];
  if (schema.pattern) limits.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) limits.push(`default ${JSON.stringify(schema.default)}`);
  return limits.filter((l): l is string => l !== null);
}

/** One row per property of an object schema, in the document's order; nested objects as `a.b`. */
/** A body that is one of several objects (POST /verify's modes): every field any of them takes, required only where all require it. */
function mergedVariants(doc: OpenApiDocument, schema: SchemaObject): SchemaObject {
  const variants = (schema.oneOf ?? []).map((v) => resolveSchema(doc, v));
  if (schema.properties || variants.length === 0 || !variants.every((v) => v.properties)) return schema;
  const properties = Object.assign({}, ...variants.map((v) => v.properties)) as Record<string, SchemaObject>;
  const required = Object.keys(properties).filter((name) => variants.every((v) => (v.required ?? []).includes(name)));
  return { ...schema, properties, required };
}

export function fieldsOf(doc: OpenApiDocument, raw: SchemaObject | undefined, prefix = ''): FieldRow[] {
  const schema = mergedVariants(doc, resolveSchema(doc, raw));
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const resolved = resolveSchema(doc, property);
    const row: FieldRow = {
      name: `${prefix}${name}`,
      type: typeText(doc, property),
      required: required.has(name),
      limits: limitsOf(doc, property),
      ...(resolved.description ? { description: resolved.description } : {}),
    };
    const children = resolved.properties && prefix.split('.').length < 4 ? fieldsOf(doc, resolved, `${row.name}.`) : [];
    return [row, ...children];
  });
}

function parameterRows(doc: OpenApiDocument, params: ParameterObject[] | undefined, where: ParameterObject['in']): FieldRow[] {
  return (params ?? [])
    .filter((p) => p.in === where)
    .map((p) => ({
      name: p.name,
      type: typeText(doc, p.schema ?? {}),
      required: Boolean(p.required),
      limits: limitsOf(doc, p.schema ?? {}),
      ...(p.description ? { description: p.description } : {}),
    }));
}

const jsonSchemaOf = (response: ResponseObject | { content?: ResponseObject['content'] } | undefined) =>
  response?.content?.['application/json']?.schema;

/** Every operation of the document, in path order, ready to show. */
export function operationsOf(doc: OpenApiDocument): DocOperation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => {
      const op = item[method]!;
      const statuses = Object.keys(op.responses ?? {}).sort();
      const successStatus = statuses.find((s) => s.startsWith('2')) ?? '200';
      const success = op.responses?.[successStatus];
      return {
        id: `${method}-${path.replace(/[{}]/g, '').replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-$/g, '')}`,
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? `${method.toUpperCase()} ${path}`,
        ...(op.description ? { description: op.description } : {}),
        ...(op.tags?.[0] ? { tag: op.tags[0] } : {}),
        needsApiKey: (op.security ?? []).length > 0,
        pathParams: parameterRows(doc, op.parameters, 'path'),
        queryParams: parameterRows(doc, op.parameters, 'query'),
        headerParams: parameterRows(doc, op.parameters, 'header'),
        requestFields: fieldsOf(doc, jsonSchemaOf(op.requestBody)),
        ...(resolveSchema(doc, jsonSchemaOf(op.requestBody)).description
          ? { requestDescription: resolveSchema(doc, jsonSchemaOf(op.requestBody)).description }
          : {}),
        successStatus,
        ...(success?.description && success.description !== 'Default Response' ? { successDescription: success.description } : {}),
        responseFields: fieldsOf(doc, jsonSchemaOf(success)),
        errors: statuses
          .filter((s) => !s.startsWith('2'))
          .map((status) => ({ status, description: op.responses?.[status]?.description ?? '' })),
      };
    }),
  );
}

/** Where the API lives: the document's first server URL (the site's configured PUBLIC_URL). */
export function apiServerUrl(doc: OpenApiDocument, fallbackOrigin: string): string {
  return (doc.servers?.[0]?.url ?? `${fallbackOrigin}/api/v1`).replace(/\/+$/, '');
}
