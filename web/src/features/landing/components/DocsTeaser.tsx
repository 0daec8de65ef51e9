import { useEffect, useRef, useState } from 'react';
import { CheckIcon, CopyIcon, FileJsonIcon } from 'lucide-react';
import { PAISE_PER_VERIFICATION, TOP_UP_PACKS, paiseToDecimalString } from '@common/pricing';
import { Button } from '@/components/ui/button';
import { SECTION_IDS, SIGN_IN_HREF } from '../content';
import { Section } from './Section';

/** The request shown in the docs teaser; the base URL is this site's own origin. */
export function verifyRequestSnippet(origin: string): string {
  return [
    'curl -X POST \\',
    `  ${origin}/api/v1/verify \\`,
    '  -H "Authorization: Bearer $SIXDIGIT_API_KEY" \\',
    '  -H "Content-Type: application/json" \\',
    `  -d '{"user_id":"u_123","totp_code":"492039"}'`,
  ].join('\n');
}

const startingBalance = TOP_UP_PACKS[0]?.amountPaise ?? 0;

const RESPONSE_SNIPPET = JSON.stringify(
  {
    verified: true,
    status: 'verified',
    request_id: 'req_01JD7K3M9Q',
    timestamp: '2025-06-02T09:41:07Z',
    cost: paiseToDecimalString(PAISE_PER_VERIFICATION),
    balance: paiseToDecimalString(startingBalance - PAISE_PER_VERIFICATION),
  },
  null,
  2,
);

function siteOrigin(): string {
  if (typeof window !== 'undefined' && window.location?.origin && window.location.origin !== 'null') {
    return window.location.origin;
  }
  return 'https://your-sixdigit-host';
}

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  }

  return (
    <>
      <span role="status" className="sr-only">
        {copied ? 'Copied to clipboard' : ''}
      </span>
      <Button
      type="button"
      variant="ghost"
      size="sm"
      onClick={copy}
      className="h-7 gap-1.5 px-2 text-xs text-slate-300 hover:bg-white/10 hover:text-white"
      aria-label={copied ? `${label} copied` : `Copy ${label}`}
    >
      {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
      <span aria-hidden="true">{copied ? 'Copied' : 'Copy'}</span>
      </Button>
    </>
  );
}

function CodePanel({ title, code, copyLabel }: { title: string; code: string; copyLabel?: string }) {
  return (
    <figure className="overflow-hidden rounded-xl border border-slate-800 bg-slate-950 text-slate-100 shadow-lg">
      <figcaption className="flex items-center justify-between gap-2 border-b border-slate-800 px-4 py-2">
        <span className="font-mono text-xs text-slate-400">{title}</span>
        {copyLabel && <CopyButton text={code} label={copyLabel} />}
      </figcaption>
      <pre tabIndex={0} className="overflow-x-auto px-3 py-4 text-xs leading-relaxed outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset sm:p-4 sm:text-[0.8125rem]">
        <code className="font-mono">{code}</code>
      </pre>
    </figure>
  );
}

const STEPS = [
  {
    title: 'Create your API key',
    body: 'Sign in, name your business and copy the key from the dashboard. It is shown once and stored only as a hash.',
  },
  {
    title: 'Enrol a user',
    body: 'POST /api/v1/generate returns a QR code, the otpauth URI and ten backup codes for the user to save.',
  },
  {
    title: 'Verify each code',
    body: 'POST /api/v1/verify answers verified, invalid_code, expired or replayed, with the cost and your new balance.',
  },
];

export function DocsTeaser() {
  const request = verifyRequestSnippet(siteOrigin());
  return (
    <Section
      id={SECTION_IDS.docs}
      eyebrow="API docs"
      title="Verify a code with one request"
      description="A small JSON API with a Bearer key. Works from any language that can make an HTTPS call."
      className="bg-muted/40"
    >
      <div className="grid items-start gap-10 lg:grid-cols-[0.9fr_1.1fr]">
        <div>
          <ol className="space-y-6">
            {STEPS.map((step, index) => (
              <li key={step.title} className="flex gap-4">
                <span
                  aria-hidden="true"
                  className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
                >
                  {index + 1}
                </span>
                <div>
                  <h3 className="font-semibold">{step.title}</h3>
                  <p className="mt-1 text-sm leading-relaxed text-muted-foreground">{step.body}</p>
                </div>
              </li>
            ))}
          </ol>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Button asChild>
              <a href={SIGN_IN_HREF}>Get an API key</a>
            </Button>
            <Button asChild variant="outline">
              <a href="/api/v1/openapi.json">
                <FileJsonIcon aria-hidden="true" />
                OpenAPI reference
              </a>
            </Button>
          </div>
        </div>
        <div className="min-w-0 space-y-4">
          <CodePanel title="Request" code={request} copyLabel="request" />
          <CodePanel title="200 OK" code={RESPONSE_SNIPPET} />
        </div>
      </div>
    </Section>
  );
}
