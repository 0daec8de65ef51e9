import { useId, useState, type FormEvent } from 'react';
import { RotateCw } from 'lucide-react';
import { SixDigitInput } from '@/components/SixDigitInput';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { proofErrorMessage, useConfirmTotp, type TotpSetupResult } from '../api';
import { CodeCard } from './CodeCard';
import { ScanPanel } from './SetupReveal';

function Step({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <li className="space-y-3">
      <h3 className="flex items-center gap-2 font-semibold">
        <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary text-sm text-primary-foreground" aria-hidden="true">
          {n}
        </span>
        <span>
          <span className="sr-only">Step {n}: </span>
          {title}
        </span>
      </h3>
      <div className="sm:pl-9">{children}</div>
    </li>
  );
}

/**
 * Setup pending (SPEC §4): scan, then confirm with the first code from the phone. Until then the
 * TOTP protects nothing, so nobody can lock themselves out with a QR code they never scanned.
 */
export function PendingSetup({
  result,
  email,
  onConfirmed,
  onRestart,
  onCancel,
  busy,
}: {
  result: TotpSetupResult | null;
  email: string;
  onConfirmed: (otherSessionsSignedOut: number) => void;
  onRestart: () => void;
  onCancel: () => void;
  busy: boolean;
}) {
  const [code, setCode] = useState('');
  const confirm = useConfirmTotp();
  const ids = { code: useId(), error: useId() };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (code.length !== 6 || confirm.isPending) return;
    confirm.mutate(code, { onSuccess: (changed) => onConfirmed(changed.otherSessionsSignedOut), onError: () => setCode('') });
  }
  const error = confirm.isError ? proofErrorMessage(confirm.error, false) : null;

  return (
    <Card data-testid="totp-pending">
      <CardHeader>
        <CardTitle className="text-xl">Finish setting up your account TOTP</CardTitle>
        <CardDescription className="text-base">It protects your sign-in only once your phone has shown it the first code.</CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="space-y-8">
          <Step n={1} title="Scan the QR code with your authenticator app">
            {result ? (
              <ScanPanel result={result} email={email} />
            ) : (
              <div className="space-y-3 text-sm">
                <p className="text-muted-foreground">
                  The QR code was shown when you started, and only then. If your app does not list Sixdigit yet, start again for a new one.
                </p>
                <Button type="button" variant="outline" size="sm" onClick={onRestart} disabled={busy}>
                  <RotateCw aria-hidden="true" />
                  Start again
                </Button>
              </div>
            )}
          </Step>
          <Step n={2} title="Type the code your app shows">
            <form onSubmit={submit} className="space-y-3" noValidate>
              <div className="flex flex-wrap items-center gap-3">
                <label htmlFor={ids.code} className="sr-only">
                  Code from your authenticator app
                </label>
                <SixDigitInput id={ids.code} value={code} onChange={setCode} invalid={Boolean(error)} describedBy={error ? ids.error : undefined} />
                <Button type="submit" disabled={code.length !== 6 || confirm.isPending}>
                  {confirm.isPending && <Spinner label="Confirming" className="text-primary-foreground" />}
                  {confirm.isPending ? 'Confirming…' : 'Confirm'}
                </Button>
              </div>
              {error && (
                <p id={ids.error} role="alert" className="text-sm font-medium text-destructive">
                  {error}
                </p>
              )}
              <p className="text-xs text-muted-foreground">Confirming signs you out on your other devices: they will be asked for a code next time.</p>
            </form>
          </Step>
          <Step n={3} title="Save your backup codes">
            <p className="text-sm text-muted-foreground">After confirming, you get 10 one-time backup codes to download, copy or print.</p>
          </Step>
        </ol>
        <details className="mt-8 rounded-lg border p-3 text-sm">
          <summary className="cursor-pointer font-medium">Compare with your phone</summary>
          <p className="mt-2 text-muted-foreground">Until you confirm, Sixdigit shows the code too, so you can check your app is right.</p>
          <div className="mt-3">
            <CodeCard local={result} />
          </div>
        </details>
        <Button type="button" variant="ghost" size="sm" className="mt-4" onClick={onCancel} disabled={busy}>
          Cancel setup
        </Button>
      </CardContent>
    </Card>
  );
}
