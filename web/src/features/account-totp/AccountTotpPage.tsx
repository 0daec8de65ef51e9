import { useState } from 'react';
import { Clock, RotateCw, ShieldCheck, TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useClockSkew } from '@/lib/server-clock';
import { useDocumentTitle } from '@/lib/use-document-title';
import { PasskeysCard } from '@/features/passkeys/PasskeysCard';
import { isAlreadyConfigured, useSetupTotp, useTotpStatus, type TotpSetupResult } from './api';
import { CodeCard } from './components/CodeCard';
import { FeatureCards } from './components/FeatureCards';
import { ResetDialog } from './components/ResetDialog';
import { SetupIntro } from './components/SetupIntro';
import { SetupReveal } from './components/SetupReveal';

/**
 * /totp (SPEC §2): the signed-in person's own account TOTP. Not configured → Setup TOTP; after
 * setup the QR code, secret and backup codes are shown once. Configured → the current code with
 * a countdown, and three feature cards.
 *
 * Right after setup the page holds the secret and computes the code itself; otherwise it asks
 * the server for the current code once per period. The secret is never stored in the browser.
 */
export function AccountTotpPage() {
  useDocumentTitle('Account TOTP · Sixdigit');
  const status = useTotpStatus();
  const setup = useSetupTotp();
  const [result, setResult] = useState<TotpSetupResult | null>(null);
  const [revealed, setRevealed] = useState(false);
  const [resetOpen, setResetOpen] = useState(false);

  function runSetup(reset: boolean) {
    setup.mutate(
      { reset },
      {
        onSuccess: (created) => {
          setResult(created);
          setRevealed(true);
          setResetOpen(false);
          toast({ title: 'TOTP Setup Complete', description: 'Scan the QR code and save your backup codes now.' });
        },
        onError: (error) => {
          if (isAlreadyConfigured(error)) {
            toast({ title: 'Already set up', description: 'TOTP was set up in another window. Showing your code.' });
            return;
          }
          toast({ variant: 'destructive', title: 'Setup Failed', description: 'Failed to setup TOTP. Please try again.' });
        },
      },
    );
  }

  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 px-4 py-8 sm:px-6">
      <header className="space-y-1">
        <p className="text-sm font-medium text-primary">Account security</p>
        <h1 className="text-3xl font-bold tracking-tight">Account TOTP</h1>
        <p className="text-muted-foreground">A time-based one-time password for your Sixdigit account.</p>
      </header>

      {status.isPending ? (
        <PageSkeleton />
      ) : status.isError ? (
        <Card role="alert">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <TriangleAlert className="size-5 text-destructive" aria-hidden="true" />
              Couldn&apos;t load your TOTP status
            </CardTitle>
            <CardDescription>Check your connection and try again.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button type="button" onClick={() => void status.refetch()} disabled={status.isFetching}>
              <RotateCw aria-hidden="true" className={status.isFetching ? 'animate-spin' : undefined} />
              Try Again
            </Button>
          </CardContent>
        </Card>
      ) : !status.data.configured && !result ? (
        <SetupIntro onSetup={() => runSetup(false)} pending={setup.isPending} />
      ) : (
        <>
          {result && revealed && (
            <SetupReveal result={result} email={status.data.email} onDismiss={() => setRevealed(false)} />
          )}
          <div className="flex flex-col gap-3 rounded-lg border bg-card p-4 text-sm sm:flex-row sm:items-center sm:justify-between">
            <p className="flex items-start gap-2" data-testid="totp-info">
              <ShieldCheck className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
              <span>
                TOTP is set up for <strong className="break-all">{status.data.email}</strong>.
                {!result && status.data.configured && (
                  <span className="text-muted-foreground">
                    {' '}
                    {status.data.backupCodesLeft} of 10 backup codes left.
                  </span>
                )}
              </span>
            </p>
            <Button type="button" variant="outline" size="sm" className="self-start sm:self-auto" onClick={() => setResetOpen(true)}>
              <RotateCw aria-hidden="true" />
              Reset TOTP
            </Button>
          </div>
          <ClockNote />
          <CodeCard local={result} />
          <FeatureCards />
          <ResetDialog open={resetOpen} onOpenChange={setResetOpen} onConfirm={() => runSetup(true)} pending={setup.isPending} />
        </>
      )}
      <PasskeysCard />
    </div>
  );
}

/** Says so when the device clock is more than 15 s off and codes use the server's time. */
function ClockNote() {
  const { offsetMs, corrected } = useClockSkew();
  if (!corrected) return null;
  const seconds = Math.round(Math.abs(offsetMs) / 1000);
  return (
    <p className="flex items-start gap-2 rounded-lg border border-warning/50 bg-warning/10 p-3 text-sm" role="status">
      <Clock className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
      <span>
        Your device clock is {seconds} s {offsetMs > 0 ? 'behind' : 'ahead of'} Sixdigit&apos;s. Codes use the corrected
        time.
      </span>
    </p>
  );
}

function PageSkeleton() {
  return (
    <div className="space-y-6" role="status" aria-label="Loading your TOTP status">
      <Skeleton className="h-14 w-full rounded-lg" />
      <Skeleton className="h-72 w-full rounded-xl" />
      <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
        <Skeleton className="h-36 rounded-xl" />
        <Skeleton className="h-36 rounded-xl" />
        <Skeleton className="h-36 rounded-xl" />
      </div>
    </div>
  );
}
