import { useMemo, useState } from 'react';
import { AlertCircle } from 'lucide-react';
import { API_KEY_PLACEHOLDER, samplesFor } from '@common/samples';
import { DOCS_LANGUAGE_LABELS, renderDocsSamples, SDK_INSTALL, SDK_LANGUAGES, type DocsLanguage } from '@common/samples/sdk';
import { CodeTabs } from '@/components/CodeTabs';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { usePageOrigin } from '@/lib/page-origin';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import { OPENAPI_URL, useOpenApiDocument } from './api';
import { ENTERPRISE_CONTAINER, EnterpriseHero } from './components/EnterpriseSection';
import { ERROR_CODES_DOC, RATE_LIMIT_HEADERS, WEBHOOK_EVENTS_DOC } from './content';
import { apiServerUrl, fieldsOf, operationsOf, type DocOperation, type FieldRow, type OpenApiDocument } from './openapi';

const METHOD_STYLES: Record<string, string> = {
  GET: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  POST: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  DELETE: 'bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-200',
};

function MethodBadge({ method }: { method: string }) {
  return (
    <span className={cn('rounded px-1.5 py-0.5 font-mono text-xs font-semibold', METHOD_STYLES[method] ?? 'bg-muted')}>{method}</span>
  );
}

function InlineCode({ children }: { children: React.ReactNode }) {
  return <code className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em] break-words">{children}</code>;
}

/** Fields as stacked rows (not a wide table), so they read at 390 px too. */
function Fields({ title, rows }: { title: string; rows: FieldRow[] }) {
  if (rows.length === 0) return null;
  return (
    <div className="mt-5">
      <h4 className="text-sm font-semibold">{title}</h4>
      <ul aria-label={title} className="mt-2 divide-y rounded-lg border">
        {rows.map((row) => (
          <li key={row.name} className="px-3 py-2.5 text-sm">
            <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
              <code className="font-mono font-semibold break-all">{row.name}</code>
              <span className="font-mono text-xs text-muted-foreground break-words">{row.type}</span>
              {row.required ? (
                <Badge variant="secondary" className="text-[0.7rem]">required</Badge>
              ) : (
                <span className="text-xs text-muted-foreground">optional</span>
              )}
            </div>
            {(row.description || row.limits.length > 0) && (
              <p className="mt-1 text-muted-foreground">
                {row.description}
                {row.description && row.limits.length > 0 && ' '}
                {row.limits.length > 0 && <span className="font-mono text-xs break-words">({row.limits.join('; ')})</span>}
              </p>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Operation({
  op,
  baseUrl,
  language,
  onLanguageChange,
}: {
  op: DocOperation;
  baseUrl: string;
  language: DocsLanguage;
  onLanguageChange: (language: DocsLanguage) => void;
}) {
  const samples = useMemo(
    () => samplesFor(op.method, op.path).map((sample) => ({ sample, code: renderDocsSamples(sample.id, { baseUrl, apiKey: API_KEY_PLACEHOLDER }) })),
    [op.method, op.path, baseUrl],
  );
  const titleId = `${op.id}-title`;
  const hasInput = op.pathParams.length + op.queryParams.length + op.headerParams.length + op.requestFields.length > 0;
  return (
    <article id={op.id} aria-labelledby={titleId} className="scroll-mt-20 border-t py-10 first:border-t-0 first:pt-0">
      <h3 id={titleId} className="flex flex-wrap items-center gap-2 text-lg font-semibold">
        <MethodBadge method={op.method} />{' '}
        <code className="font-mono break-all">{op.path}</code>
      </h3>
      <p className="mt-2 text-muted-foreground">{op.summary}</p>
      {op.description && <p className="mt-2 text-sm text-muted-foreground">{op.description}</p>}
      {samples.map(({ sample, code }) => (
        <div key={sample.id} className="mt-4">
          {sample.caption && <p className="mb-2 text-sm font-medium">{sample.caption}</p>}
          <CodeTabs
            title={`${op.method} ${op.path}${sample.caption ? ` (${sample.caption.split(':')[0]!.toLowerCase()})` : ''}`}
            samples={code}
            language={language}
            onLanguageChange={onLanguageChange}
          />
        </div>
      ))}
      <div className={cn('grid gap-x-6', hasInput && 'md:grid-cols-2')}>
        <div className={cn('min-w-0', !hasInput && 'hidden')}>
          <Fields title="Path parameters" rows={op.pathParams} />
          <Fields title="Query parameters" rows={op.queryParams} />
          <Fields title="Headers" rows={op.headerParams} />
          {op.requestDescription && <p className="mt-5 text-sm text-muted-foreground">{op.requestDescription}</p>}
          <Fields title="Request body (JSON)" rows={op.requestFields} />
        </div>
        <div className="min-w-0">
          <Fields title={`Response ${op.successStatus}${op.successDescription ? ` — ${op.successDescription}` : ''}`} rows={op.responseFields} />
          {op.responseFields.length === 0 && (
            <p className="mt-5 text-sm">
              <span className="font-semibold">Response {op.successStatus}</span>
              {op.successDescription && <span className="text-muted-foreground"> — {op.successDescription}</span>}
            </p>
          )}
          {op.errors.length > 0 && (
            <div className="mt-5">
              <h4 className="text-sm font-semibold">Errors</h4>
              <ul className="mt-2 divide-y rounded-lg border text-sm">
                {op.errors.map((error) => (
                  <li key={error.status} className="flex gap-3 px-3 py-2">
                    <code className="font-mono font-semibold">{error.status}</code>
                    <span className="text-muted-foreground">{error.description}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </div>
    </article>
  );
}

function Reference({ doc }: { doc: OpenApiDocument }) {
  const [language, setLanguage] = useState<DocsLanguage>('curl');
  const baseUrl = apiServerUrl(doc, usePageOrigin());
  const aliasUrl = baseUrl.replace(/\/api\/v1$/, '/v1');
  const operations = useMemo(() => operationsOf(doc), [doc]);
  const envelope = fieldsOf(doc, { $ref: '#/components/schemas/Error' });
  const scheme = Object.values(doc.components?.securitySchemes ?? {})[0];
  const errorStatuses = useMemo(() => {
    const seen = new Map<string, string[]>();
    for (const op of operations) {
      for (const error of op.errors) seen.set(error.status, [...(seen.get(error.status) ?? []), `${op.method} ${op.path}`]);
    }
    return [...seen.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [operations]);
  const quickStart = useMemo(() => renderDocsSamples('verify', { baseUrl, apiKey: API_KEY_PLACEHOLDER }), [baseUrl]);

  const toc = [
    { id: 'quick-start', label: 'Quick start' },
    { id: 'authentication', label: 'Authentication' },
    { id: 'test-mode', label: 'Test mode' },
    { id: 'sdks', label: 'SDKs' },
    ...operations.map((op) => ({ id: op.id, label: `${op.method} ${op.path}` })),
    { id: 'errors', label: 'Errors' },
    { id: 'rate-limits', label: 'Rate limits' },
    { id: 'webhook-endpoints', label: 'Webhook endpoints' },
    { id: 'webhooks', label: 'Webhooks' },
  ];

  return (
    <div className={cn(ENTERPRISE_CONTAINER, 'grid gap-10 py-12 lg:grid-cols-[14rem_minmax(0,1fr)]')}>
      <nav aria-label="On this page" className="hidden lg:block">
        <ul className="sticky top-20 space-y-1 text-sm">
          {toc.map((item) => (
            <li key={item.id}>
              <a href={`#${item.id}`} className="block rounded px-2 py-1 text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0 space-y-14">
        <section id="quick-start" aria-labelledby="quick-start-title" className="scroll-mt-20">
          <h2 id="quick-start-title" className="text-2xl font-semibold tracking-tight">Quick start</h2>
          <ol className="mt-4 list-decimal space-y-2 pl-5 text-muted-foreground">
            <li>
              <a className="font-medium text-primary underline-offset-4 hover:underline" href={`${new URL(baseUrl).origin}/api/login`}>
                Create a business account
              </a>{' '}
              and copy your API key from the dashboard (it is shown once).
            </li>
            <li>
              Enrol each user with <InlineCode>POST /generate</InlineCode>: show them the QR code, keep their <InlineCode>user_id</InlineCode>.
            </li>
            <li>
              Check every code they type with <InlineCode>POST /verify</InlineCode>: sign them in when <InlineCode>verified</InlineCode> is true.
            </li>
          </ol>
          <p className="mt-4 text-sm text-muted-foreground">
            Every sample on this page is run against a live server in Sixdigit's test suite. Choose a language once; every
            sample follows.
          </p>
          <CodeTabs className="mt-4" title="POST /verify" samples={quickStart} language={language} onLanguageChange={setLanguage} />
        </section>

        <section id="authentication" aria-labelledby="authentication-title" className="scroll-mt-20">
          <h2 id="authentication-title" className="text-2xl font-semibold tracking-tight">Authentication and base URL</h2>
          <p className="mt-4 text-muted-foreground">
            Send your key in the <InlineCode>Authorization</InlineCode> header as{' '}
            <InlineCode>{scheme?.scheme === 'bearer' ? 'Bearer' : scheme?.scheme} sk_live_…</InlineCode>
. Keep it on your server: anyone holding it can spend your credit. While you build, use your free test key{' '}
            <InlineCode>sk_test_…</InlineCode> instead (<a className="font-medium text-primary underline-offset-4 hover:underline" href="#test-mode">test mode</a>).
          </p>
          <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
            <div className="rounded-lg border p-3">
              <dt className="text-muted-foreground">Base URL</dt>
              <dd className="mt-1 font-mono break-all" data-testid="docs-base-url">{baseUrl}</dd>
            </div>
            <div className="rounded-lg border p-3">
              <dt className="text-muted-foreground">Alias (same routes)</dt>
              <dd className="mt-1 font-mono break-all">{aliasUrl}</dd>
            </div>
          </dl>
          <p className="mt-4 text-sm text-muted-foreground">
            Requests and answers are JSON. <InlineCode>POST /generate</InlineCode>, <InlineCode>POST /verify</InlineCode> and{' '}
            <InlineCode>POST /webhook_endpoints</InlineCode> accept an <InlineCode>Idempotency-Key</InlineCode> header: a retry with the
            same key and body returns the stored answer and is not charged (or created) twice. The machine-readable description is at{' '}
            <a className="font-medium text-primary underline-offset-4 hover:underline" href={OPENAPI_URL}>
              {OPENAPI_URL}
            </a>{' '}
            ({doc.info.title} {doc.info.version}, OpenAPI {doc.openapi}).
          </p>
        </section>

        <section id="test-mode" aria-labelledby="test-mode-title" className="scroll-mt-20">
          <h2 id="test-mode-title" className="text-2xl font-semibold tracking-tight">Test mode</h2>
          <p className="mt-4 text-muted-foreground">
            Every business has two keys: a live key <InlineCode>sk_live_…</InlineCode> and a test key <InlineCode>sk_test_…</InlineCode>,
            both shown once when the account is created (and each again when you regenerate it, on its own, from the dashboard's
            API configuration card). Build and run your CI against the test key; go live by changing that one string.
          </p>
          <ul className="mt-4 list-disc space-y-2 pl-5 text-muted-foreground">
            <li>
              <strong className="text-foreground">Free.</strong> Test calls do everything live calls do — enrol, verify (with a user or
              stateless), replay protection, the 5-failure throttle, <InlineCode>Idempotency-Key</InlineCode>, lookups, webhooks — but
              cost <InlineCode>0.00</InlineCode> and need no balance. Your balance is never touched.
            </li>
            <li>
              <strong className="text-foreground">Kept apart.</strong> Users enrolled, checks made, idempotent answers and webhook
              deliveries of one mode are invisible to the other: a test key gets <InlineCode>404</InlineCode> for a live user and the
              reverse, and the same <InlineCode>user_id</InlineCode> can be enrolled in both, independently.
            </li>
            <li>
              <strong className="text-foreground"><InlineCode>livemode</InlineCode>.</strong> Every answer that describes a verification,
              a user or your account, and every webhook payload, carries <InlineCode>livemode: false</InlineCode> in test mode
              (<InlineCode>true</InlineCode> in live).
            </li>
            <li>
              <strong className="text-foreground">Webhooks.</strong> Test events go only to endpoints added with the dashboard's Test
              switch on; live events only to live endpoints.
            </li>
            <li>
              <strong className="text-foreground">Its own rate limit.</strong> The test key has its own budget, 100 requests a minute,
              separate from the live key's (see <InlineCode>rate_limit</InlineCode> in <InlineCode>GET /profile</InlineCode> and the{' '}
              <InlineCode>RateLimit-*</InlineCode> headers).
            </li>
          </ul>
        </section>

        <section id="sdks" aria-labelledby="sdks-title" className="scroll-mt-20">
          <h2 id="sdks-title" className="text-2xl font-semibold tracking-tight">SDKs</h2>
          <p className="mt-4 text-muted-foreground">
            Two SDKs live in the Sixdigit repository, beside the server they are tested against: <InlineCode>sixdigit</InlineCode> for
            Node 20+ (also Deno and edge runtimes with <InlineCode>fetch</InlineCode>), typed from the OpenAPI document, and{' '}
            <InlineCode>sixdigit</InlineCode> for Python 3.9+, standard library only. Both retry network errors,{' '}
            <InlineCode>429</InlineCode> and <InlineCode>5xx</InlineCode> with backoff that honours <InlineCode>Retry-After</InlineCode>, send
            one <InlineCode>Idempotency-Key</InlineCode> across the retries of a call (a retried check is never billed twice), throw typed
            errors carrying <InlineCode>code</InlineCode>, <InlineCode>status</InlineCode>, <InlineCode>request_id</InlineCode> and{' '}
            <InlineCode>doc_url</InlineCode>, walk lists page by page, and verify webhook signatures. Pick the “Node SDK” or “Python SDK” tab on
            any sample below.
          </p>
          <div className="mt-4 grid gap-3 sm:grid-cols-2">
            {SDK_LANGUAGES.map((lang) => (
              <div key={lang} className="min-w-0 rounded-lg border p-3">
                <h3 className="text-sm font-semibold">{DOCS_LANGUAGE_LABELS[lang]}: install</h3>
                <pre tabIndex={0} aria-label={`${DOCS_LANGUAGE_LABELS[lang]} install commands`} className="mt-2 overflow-x-auto rounded bg-slate-950 p-3 text-xs text-slate-100 outline-none focus-visible:ring-2 focus-visible:ring-ring">
                  <code className="font-mono">{SDK_INSTALL[lang]}</code>
                </pre>
              </div>
            ))}
          </div>
        </section>

        <section id="endpoints" aria-labelledby="endpoints-title" className="scroll-mt-20">
          <h2 id="endpoints-title" className="text-2xl font-semibold tracking-tight">Endpoints</h2>
          {doc.info.description && <p className="mt-2 text-muted-foreground">{doc.info.description}</p>}
          <div className="mt-8">
            {operations.map((op) => (
              <Operation key={op.id} op={op} baseUrl={baseUrl} language={language} onLanguageChange={setLanguage} />
            ))}
          </div>
        </section>

        <section id="errors" aria-labelledby="errors-title" className="scroll-mt-20">
          <h2 id="errors-title" className="text-2xl font-semibold tracking-tight">Errors</h2>
          <p className="mt-4 text-muted-foreground">
            Every error, on every endpoint, has the same envelope; branch on <InlineCode>error.code</InlineCode> and quote{' '}
            <InlineCode>request_id</InlineCode> to support.
          </p>
          <Fields title="Envelope" rows={envelope} />
          <div role="group" aria-label="HTTP statuses" tabIndex={0} className="mt-5 overflow-x-auto rounded-lg border outline-none focus-visible:ring-2 focus-visible:ring-ring">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">HTTP statuses that carry the error envelope</caption>
              <thead className="bg-muted/60 text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">Status</th>
                  <th scope="col" className="px-3 py-2 font-medium">Returned by</th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {errorStatuses.map(([status, ops]) => (
                  <tr key={status}>
                    <th scope="row" className="px-3 py-2 font-mono">{status}</th>
                    <td className="px-3 py-2 font-mono text-xs text-muted-foreground">{ops.join(', ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h3 id="errors-by-code" className="mt-8 text-lg font-semibold">Error codes</h3>
          <p className="mt-2 text-muted-foreground">
            Each error's <InlineCode>doc_url</InlineCode> links to its code here. A <InlineCode>validation_failed</InlineCode> also carries{' '}
            <InlineCode>details</InlineCode>: one <InlineCode>{'{ path, message }'}</InlineCode> per refused field.
          </p>
          <dl aria-labelledby="errors-by-code" className="mt-4 divide-y rounded-lg border text-sm">
            {ERROR_CODES_DOC.map((item) => (
              <div key={item.code} id={`error-${item.code}`} className="flex scroll-mt-20 flex-col gap-1 px-3 py-2 target:bg-muted sm:flex-row sm:gap-4">
                <dt className="font-mono font-semibold break-all sm:w-64 sm:shrink-0">
                  {item.code} <span className="font-normal text-muted-foreground">{item.status}</span>
                </dt>
                <dd className="text-muted-foreground">{item.meaning}</dd>
              </div>
            ))}
          </dl>
        </section>

        <section id="rate-limits" aria-labelledby="rate-limits-title" className="scroll-mt-20">
          <h2 id="rate-limits-title" className="text-2xl font-semibold tracking-tight">Rate limits</h2>
          <p className="mt-4 text-muted-foreground">
            Each API key has a per-minute budget shared by every endpoint (and both base URLs);{' '}
            <InlineCode>GET /profile</InlineCode> returns yours as <InlineCode>rate_limit.requests_per_minute</InlineCode>. Over it, the
            answer is <InlineCode>429</InlineCode> with code <InlineCode>rate_limited</InlineCode>. Every answer to a valid key carries these,
            errors included (a <InlineCode>401</InlineCode> belongs to no key and carries none):
          </p>
          <ul className="mt-4 divide-y rounded-lg border text-sm">
            {RATE_LIMIT_HEADERS.map((header) => (
              <li key={header.name} className="flex flex-col gap-1 px-3 py-2 sm:flex-row sm:gap-4">
                <code className="font-mono font-semibold sm:w-44 sm:shrink-0">{header.name}</code>
                <span className="text-muted-foreground">{header.meaning}</span>
              </li>
            ))}
          </ul>
        </section>

        <section id="webhook-endpoints" aria-labelledby="webhook-endpoints-title" className="scroll-mt-20">
          <h2 id="webhook-endpoints-title" className="text-2xl font-semibold tracking-tight">Webhook endpoints</h2>
          <p className="mt-4 text-muted-foreground">
            Manage where events go from your code or from the dashboard: both see the same endpoints, under the same rules.{' '}
            <InlineCode>POST /webhook_endpoints</InlineCode> with a <InlineCode>url</InlineCode> and the <InlineCode>events</InlineCode> to
            send answers <InlineCode>201</InlineCode> with the endpoint and its signing <InlineCode>secret</InlineCode>. Store the secret
            then: it is shown in that answer only, and <InlineCode>GET</InlineCode>, the list and <InlineCode>PATCH</InlineCode> never
            return it (to replace a secret, add a new endpoint and delete the old one).
          </p>
          <ul className="mt-4 list-disc space-y-2 pl-5 text-muted-foreground">
            <li>
              The address must be public: <InlineCode>https://</InlineCode> in production, never a private, loopback, link-local or
              cloud-metadata address (checked when saved and again on every delivery). A refused address is a{' '}
              <InlineCode>400 validation_failed</InlineCode> whose <InlineCode>details</InlineCode> name <InlineCode>url</InlineCode>.
            </li>
            <li>
              A business has at most 10 endpoints; one more is <InlineCode>409 conflict</InlineCode>. Another business's endpoint id
              answers <InlineCode>404 not_found</InlineCode>, like one that does not exist.
            </li>
            <li>
              <InlineCode>PATCH /webhook_endpoints/{'{id}'}</InlineCode> changes <InlineCode>url</InlineCode>, <InlineCode>events</InlineCode>,{' '}
              <InlineCode>description</InlineCode> (<InlineCode>null</InlineCode> clears it) or <InlineCode>is_active</InlineCode>:{' '}
              <InlineCode>false</InlineCode> pauses deliveries, <InlineCode>true</InlineCode> resumes them and clears a{' '}
              <InlineCode>disabled_reason</InlineCode> (Sixdigit switches an endpoint off itself when it answers 410 Gone or fails every
              attempt for a day).
            </li>
            <li>
              <InlineCode>POST /webhook_endpoints/{'{id}'}/test</InlineCode> sends a signed <InlineCode>test.ping</InlineCode> event through
              the normal queue; its <InlineCode>delivery_id</InlineCode> is the <InlineCode>webhook-id</InlineCode> header your endpoint
              receives. <InlineCode>GET /webhook_endpoints/{'{id}'}/deliveries</InlineCode> is the delivery log, newest first: each
              delivery with its status and every attempt (your endpoint's HTTP status, the error, the time taken).
            </li>
            <li>
              Lists page like the others: <InlineCode>limit</InlineCode> 1–100 (default 20), newest first; pass the last{' '}
              <InlineCode>id</InlineCode> as <InlineCode>starting_after</InlineCode> while <InlineCode>has_more</InlineCode> is true.
            </li>
          </ul>
        </section>

        <section id="webhooks" aria-labelledby="webhooks-title" className="scroll-mt-20">
          <h2 id="webhooks-title" className="text-2xl font-semibold tracking-tight">Webhooks</h2>
          <p className="mt-4 text-muted-foreground">
            Register an endpoint with <InlineCode>POST /webhook_endpoints</InlineCode> or in your dashboard. Each delivery is a signed JSON <InlineCode>POST</InlineCode> following the{' '}
            Standard Webhooks specification: headers <InlineCode>webhook-id</InlineCode>, <InlineCode>webhook-timestamp</InlineCode> and{' '}
            <InlineCode>webhook-signature</InlineCode> (<InlineCode>v1,</InlineCode> + base64 HMAC-SHA256 of{' '}
            <InlineCode>id.timestamp.body</InlineCode>, keyed with your <InlineCode>whsec_…</InlineCode> secret), plus{' '}
            <InlineCode>x-sixdigit-event</InlineCode>. Verify the signature with any Standard Webhooks library and answer 2xx; failed
            deliveries are retried. Bodies never contain a secret or a code.
          </p>
          <p className="mt-4 text-muted-foreground">
            Each body carries <InlineCode>type</InlineCode> (the event; <InlineCode>event</InlineCode> holds the same value),{' '}
            <InlineCode>data</InlineCode>, <InlineCode>timestamp</InlineCode> and <InlineCode>livemode</InlineCode>. Deliveries can arrive out of
            order and more than once (a retry may overtake a later event): deduplicate on the <InlineCode>webhook-id</InlineCode> header (unique per event, kept
            across retries, but random, not ordered) and order by the body's <InlineCode>timestamp</InlineCode>, the moment the change
            happened: ignore an event older than the last one you applied for the same record. Events with the same timestamp come
            from one change (a check and the <InlineCode>credit.low</InlineCode> it caused) and do not depend on each other.
          </p>
          <ul className="mt-4 divide-y rounded-lg border text-sm">
            {WEBHOOK_EVENTS_DOC.map((item) => (
              <li key={item.event} className="flex flex-col gap-1 px-3 py-2 sm:flex-row sm:gap-4">
                <code className="font-mono font-semibold sm:w-44 sm:shrink-0">{item.event}</code>
                <span className="text-muted-foreground">{item.when}</span>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}

function ReferenceSkeleton() {
  return (
    <div className={cn(ENTERPRISE_CONTAINER, 'space-y-4 py-12')} aria-busy="true" aria-label="Loading the API reference">
      <Skeleton className="h-8 w-48" />
      <Skeleton className="h-4 w-full max-w-xl" />
      <Skeleton className="h-48 w-full" />
      <Skeleton className="h-48 w-full" />
    </div>
  );
}

export function EnterpriseDocsPage() {
  useDocumentTitle('API documentation · Sixdigit Enterprise');
  const { data, isPending, isError, refetch, isFetching } = useOpenApiDocument();
  return (
    <>
      <EnterpriseHero
        eyebrow="API documentation"
        title="Verify a code with one request"
        description={
          <p>
            A small JSON API with a Bearer key: enrol a user, then verify the codes they type. This reference is generated from the
            OpenAPI document the server publishes, so it always matches the live API.
          </p>
        }
      />
      {isPending && <ReferenceSkeleton />}
      {isError && (
        <div className={cn(ENTERPRISE_CONTAINER, 'py-12')}>
          <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border border-destructive/40 p-4 sm:flex-row sm:items-center">
            <AlertCircle aria-hidden="true" className="size-5 text-destructive" />
            <p className="flex-1 text-sm">The API reference could not be loaded. Check your connection and try again.</p>
            <Button type="button" variant="outline" size="sm" onClick={() => refetch()} disabled={isFetching}>
              Try again
            </Button>
          </div>
        </div>
      )}
      {data && <Reference doc={data} />}
    </>
  );
}
