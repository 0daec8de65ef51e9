import { useMemo, useState } from 'react';
import { FileJsonIcon } from 'lucide-react';
import { PAISE_PER_VERIFICATION, TOP_UP_PACKS, paiseToDecimalString } from '@common/pricing';
import { API_KEY_PLACEHOLDER, apiBaseUrl, renderSamples, type SampleLanguage } from '@common/samples';
import { CodeTabs } from '@/components/CodeTabs';
import { Button } from '@/components/ui/button';
import { usePageOrigin } from '@/lib/page-origin';
import { SECTION_IDS, SIGN_IN_HREF } from '../content';
import { Section } from './Section';

const startingBalance = TOP_UP_PACKS[0]?.amountPaise ?? 0;

const RESPONSE_SNIPPET = JSON.stringify(
  {
    verified: true,
    status: 'verified',
    verification_id: 'ver_01JD7K3M9R',
    request_id: 'req_01JD7K3M9Q',
    timestamp: '2025-06-02T09:41:07Z',
    cost: paiseToDecimalString(PAISE_PER_VERIFICATION),
    balance: paiseToDecimalString(startingBalance - PAISE_PER_VERIFICATION),
  },
  null,
  2,
);

function CodePanel({ title, code }: { title: string; code: string }) {
  return (
    <figure className="overflow-hidden rounded-xl border border-slate-800 bg-slate-950 text-slate-100 shadow-lg">
      <figcaption className="flex items-center justify-between gap-2 border-b border-slate-800 px-4 py-2">
        <span className="font-mono text-xs text-slate-400">{title}</span>
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
  const [language, setLanguage] = useState<SampleLanguage>('curl');
  // The same samples the docs show and the sample test runs, for this site's own API.
  const origin = usePageOrigin();
  const samples = useMemo(() => renderSamples('verify', { baseUrl: apiBaseUrl(origin), apiKey: API_KEY_PLACEHOLDER }), [origin]);
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
          <CodeTabs title="POST /api/v1/verify" samples={samples} language={language} onLanguageChange={setLanguage} className="shadow-lg" />
          <CodePanel title="200 OK" code={RESPONSE_SNIPPET} />
        </div>
      </div>
    </Section>
  );
}
