import { useState } from 'react';
import { Clock, RotateCw, TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useCurrentUser } from '@/features/auth/api';
import { PasskeysCard } from '@/features/passkeys/PasskeysCard';
import { useClockSkew } from '@/lib/server-clock';
import { useDocumentTitle } from '@/lib/use-document-title';
import { isAlreadyConfigured, useDisableTotp, useSetupTotp, useTotpStatus, type TotpSetupResult } from './api';
import { DevicesCard } from './components/DevicesCard';
import { FeatureCards } from './components/FeatureCards';
import { PendingSetup } from './components/PendingSetup';
import { ProtectedStatus } from './components/ProtectedStatus';
import { BackupCodesPanel } from './components/SetupReveal';
import { SetupIntro } from './components/SetupIntro';

/**
 * /totp, the account security page (SPEC §2; issue 19). The account TOTP in three states — not
 * configured, setup pending (scan → confirm → save backup codes), configured (it protects sign-in;
 * no live code) — then passkeys and the signed-in devices.
 *
 * The secret and backup codes from setup live only in page state: shown once, never stored.
 */
export function AccountTotpPage() {
  useDocumentTitle('Account security · Sixdigit');
  const { user } = useCurrentUser();
  const impersonating = Boolean(user?.impersonation);
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 px-4 py-8 sm:px-6">
      <header className="space-y-1">
        <p className="text-sm font-medium text-primary">Account security</p>
        <h1 className="text-3xl font-bold tracking-tight">Account TOTP</h1>
        <p className="text-muted-foreground">A second step at sign-in with your authenticator app, your passkeys, and where you are signed in.</p>
      </header>
      {impersonating ? (
        <Card role="status">
          <CardHeader>
            <CardTitle>Not available while acting as this user</CardTitle>
            <CardDescription>The second factor, passkeys and devices are the person&apos;s own: an administrator cannot see or change them.</CardDescription>
          </CardHeader>
        </Card>
      ) : (
        <>
          <TotpSection />
          <PasskeysCard />
          <DevicesCard />
        </>
      )}
    </div>
  );
}

function TotpSection() {
  const status = useTotpStatus();
  const setup = useSetupTotp();
  const cancel = useDisableTotp();
  const [result, setResult] = useState<TotpSetupResult | null>(null);
  /** after confirming: the backup codes from this page's setup, until "I've saved them" */
  const [saveCodes, setSaveCodes] = useState<string[] | null>(null);

  function runSetup() {
    setup.mutate(undefined, {
      onSuccess: (created) => setResult(created),
      onError: (error) => {
        if (isAlreadyConfigured(error)) {
          toast({ title: 'Already protected', description: 'Your account TOTP was confirmed in another window.' });
          return;
        }
        toast({ variant: 'destructive', title: 'Setup Failed', description: 'Failed to setup TOTP. Please try again.' });
      },
    });
  }

  function confirmed(otherSessionsSignedOut: number) {
    setSaveCodes(result?.backupCodes ?? null);
    setResult(null);
    const others = otherSessionsSignedOut > 0 ? ` ${otherSessionsSignedOut} other ${otherSessionsSignedOut === 1 ? 'session was' : 'sessions were'} signed out.` : '';
    toast({ title: 'TOTP Setup Complete', description: `Your sign-in now asks for a code from your app.${others}` });
  }

  if (status.isPending) return <PageSkeleton />;
  if (status.isError) {
    return (
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
    );
  }

  const { data } = status;
  if (saveCodes && data.configured) {
    return (
      <Card className="border-2 border-warning" data-testid="totp-save-codes">
        <CardHeader>
          <CardTitle className="text-xl">Step 3: save your backup codes</CardTitle>
          <CardDescription className="text-base">
            Your sign-in is protected. If you lose your phone, one of these codes gets you in — each works once. They are shown only now.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <BackupCodesPanel codes={saveCodes} email={data.email} />
          <Button type="button" onClick={() => setSaveCodes(null)}>
            I&apos;ve saved my backup codes
          </Button>
        </CardContent>
      </Card>
    );
  }
  if (data.configured) {
    return (
      <>
        <ProtectedStatus status={data} />
        <FeatureCards />
      </>
    );
  }
  if (data.pending || result) {
    return (
      <>
        <ClockNote />
        <PendingSetup
          result={result}
          email={data.email}
          onConfirmed={confirmed}
          onRestart={runSetup}
          busy={setup.isPending || cancel.isPending}
          onCancel={() => cancel.mutate(null, { onSuccess: () => setResult(null) })}
        />
      </>
    );
  }
  return <SetupIntro onSetup={runSetup} pending={setup.isPending} />;
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
        Your device clock is {seconds} s {offsetMs > 0 ? 'behind' : 'ahead of'} Sixdigit&apos;s. Codes use the corrected time.
      </span>
    </p>
  );
}

function PageSkeleton() {
  return (
    <div className="space-y-6" role="status" aria-label="Loading your TOTP status">
      <Skeleton className="h-14 w-full rounded-lg" />
      <Skeleton className="h-72 w-full rounded-xl" />
    </div>
  );
}
