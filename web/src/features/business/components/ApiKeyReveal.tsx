import { useId } from 'react';
import { useRevealFocus } from '@/lib/use-reveal-focus';
import { KeyRound, TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useCopy } from '@/lib/use-copy';
import { CopyButton } from './CopyButton';

export interface RevealedKey {
  apiKey: string;
  reason: 'created' | 'regenerated';
  /** which key apiKey is (regeneration); at creation apiKey is live and testApiKey comes with it */
  mode: 'live' | 'test';
  testApiKey?: string;
}

/**
 * The full API key, shown once: right after the business is created or the key regenerated.
 * It lives only in page state — leaving the page or pressing "I've saved it" forgets it.
 */
export function ApiKeyReveal({ revealed, onDismiss }: { revealed: RevealedKey; onDismiss: () => void }) {
  const titleId = useId();
  const { copied, copy } = useCopy();
  // The key may appear far above where the person clicked (e.g. after regenerating on a phone).
  const ref = useRevealFocus<HTMLElement>(revealed.apiKey);
  const test = revealed.mode === 'test';
  const title = revealed.reason === 'created' ? 'Your API keys' : test ? 'Your new test API key' : 'Your new API key';

  return (
    <section
      ref={ref}
      tabIndex={-1}
      aria-labelledby={titleId}
      className="scroll-mt-20 rounded-xl border-2 border-warning bg-warning/10 p-4 shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-ring sm:p-6"
      data-testid="api-key-reveal"
    >
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-warning/20 text-warning-foreground">
          <KeyRound className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1 space-y-3">
          <div>
            <h2 id={titleId} className="text-lg font-semibold">
              {title}
            </h2>
            <p className="mt-1 flex items-start gap-1.5 text-sm font-medium">
              <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
              <span>
                Copy {revealed.testApiKey ? 'them' : 'it'} now and keep {revealed.testApiKey ? 'them' : 'it'} somewhere safe, such as a
                secret manager. {revealed.testApiKey ? 'They' : 'It'} won&apos;t be shown again — if you lose one, regenerate it.
                {revealed.reason === 'regenerated' && ` Your previous ${test ? 'test ' : ''}key has stopped working.`}
              </span>
            </p>
          </div>
          <KeyLine
            label={revealed.testApiKey ? 'Live key' : null}
            value={revealed.apiKey}
            copyLabel={test ? 'Copy test API key' : 'Copy API key'}
            copied={copied === 'key'}
            onCopy={() => void copy('key', revealed.apiKey, { title: test ? 'Test Key Copied' : 'API Key Copied', description: 'Paste it into your server configuration now.' })}
          />
          {revealed.testApiKey && (
            <KeyLine
              label="Test key — free calls on test data, for building and CI"
              value={revealed.testApiKey}
              copyLabel="Copy test API key"
              copied={copied === 'test-key'}
              onCopy={() => void copy('test-key', revealed.testApiKey!, { title: 'Test Key Copied', description: 'Use it while you build; switch to the live key by changing this one string.' })}
            />
          )}
          <Button type="button" variant="outline" size="sm" onClick={onDismiss}>
            I&apos;ve saved {revealed.testApiKey ? 'them — hide the keys' : 'it — hide the key'}
          </Button>
        </div>
      </div>
    </section>
  );
}

function KeyLine({ label, value, copyLabel, copied, onCopy }: { label: string | null; value: string; copyLabel: string; copied: boolean; onCopy: () => void }) {
  return (
    <div className="space-y-1">
      {label && <p className="text-xs font-medium text-muted-foreground">{label}</p>}
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code className="min-w-0 flex-1 rounded-md border bg-background px-3 py-2 font-mono text-sm break-all select-all">{value}</code>
        <CopyButton label={copyLabel} size="default" variant="default" copied={copied} onCopy={onCopy} />
      </div>
    </div>
  );
}
