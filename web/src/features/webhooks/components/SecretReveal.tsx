import { CheckIcon, CopyIcon, KeyRound, TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useCopy } from '@/lib/use-copy';

/**
 * The signing secret of a webhook just created. It lives only in the dialog's state: closing
 * the dialog forgets it, and the server never shows it again.
 */
export function SecretReveal({ secret }: { secret: string }) {
  const { copied, copy } = useCopy();
  return (
    <section aria-label="Signing secret" className="space-y-3 rounded-lg border-2 border-warning bg-warning/10 p-4" data-testid="webhook-secret">
      <p className="flex items-center gap-2 text-sm font-semibold">
        <KeyRound className="size-4 shrink-0" aria-hidden="true" />
        Signing secret
      </p>
      <p className="flex items-start gap-1.5 text-sm">
        <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
        <span>
          Copy it now and store it with your receiver. It won&apos;t be shown again. Verify each delivery with any
          Standard Webhooks library using this secret.
        </span>
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code className="min-w-0 flex-1 rounded-md border bg-background px-3 py-2 font-mono text-sm break-all select-all">{secret}</code>
        <Button
          type="button"
          onClick={() => void copy('secret', secret, { title: 'Copied!', description: 'The signing secret is on your clipboard.' })}
          aria-label={copied === 'secret' ? 'Copy signing secret: copied' : 'Copy signing secret'}
        >
          {copied === 'secret' ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
          <span aria-hidden="true">{copied === 'secret' ? 'Copied' : 'Copy'}</span>
        </Button>
      </div>
    </section>
  );
}
