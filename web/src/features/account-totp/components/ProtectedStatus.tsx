import { useId, useState, type FormEvent } from 'react';
import { CheckCircle2, KeyRound, PowerOff, ShieldCheck, TriangleAlert, XCircle } from 'lucide-react';
import { SixDigitInput } from '@/components/SixDigitInput';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { FEW_BACKUP_CODES, proofErrorMessage, useCheckTotp, useDisableTotp, useRegenerateBackupCodes, type TotpStatus } from '../api';
import { formatWhen } from '../format';
import { ProofDialog } from './ProofDialog';
import { BackupCodesPanel } from './SetupReveal';

const signedOutNote = (n: number) => (n > 0 ? ` ${n} other ${n === 1 ? 'session was' : 'sessions were'} signed out.` : '');

/**
 * Configured: the TOTP protects sign-in. No live code here (anyone holding this session could
 * read it — DESIGN §9); instead the facts, "check my authenticator", new backup codes and turn off.
 */
export function ProtectedStatus({ status }: { status: TotpStatus }) {
  const [dialog, setDialog] = useState<'regenerate' | 'disable' | null>(null);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  const regenerate = useRegenerateBackupCodes();
  const disable = useDisableTotp();
  const few = status.backupCodesLeft <= FEW_BACKUP_CODES;

  return (
    <Card data-testid="totp-configured">
      <CardHeader className="gap-3">
        <div className="flex items-center gap-3">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-success/15 text-success">
            <ShieldCheck className="size-5" aria-hidden="true" />
          </span>
          <div>
            <CardTitle className="text-xl">Your sign-in is protected</CardTitle>
            <CardDescription>
              After Google (or your usual sign-in), Sixdigit asks for the code from your authenticator app for{' '}
              <strong className="break-all text-foreground">{status.email}</strong>.
            </CardDescription>
          </div>
        </div>
      </CardHeader>
      <CardContent className="space-y-6">
        <dl className="grid gap-3 text-sm sm:grid-cols-3">
          <div className="rounded-lg border p-3">
            <dt className="text-muted-foreground">Protected since</dt>
            <dd className="mt-1 font-medium">{formatWhen(status.protectedSince)}</dd>
          </div>
          <div className="rounded-lg border p-3">
            <dt className="text-muted-foreground">Last used to sign in</dt>
            <dd className="mt-1 font-medium">{formatWhen(status.lastUsedAt)}</dd>
          </div>
          <div className={few ? 'rounded-lg border border-warning bg-warning/10 p-3' : 'rounded-lg border p-3'}>
            <dt className="text-muted-foreground">Backup codes left</dt>
            <dd className="mt-1 font-medium" data-testid="backup-codes-left">
              {status.backupCodesLeft} of 10
            </dd>
          </div>
        </dl>
        {few && !newCodes && (
          <p role="status" className="flex items-start gap-2 rounded-lg border border-warning/50 bg-warning/10 p-3 text-sm">
            <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
            <span>
              {status.backupCodesLeft === 0 ? 'You have no backup codes left.' : `Only ${status.backupCodesLeft} backup ${status.backupCodesLeft === 1 ? 'code' : 'codes'} left.`} Make new ones
              so a lost phone does not lock you out.
            </span>
          </p>
        )}

        {newCodes && (
          <section className="space-y-3 rounded-xl border-2 border-warning bg-warning/10 p-4" aria-label="Your new backup codes">
            <p className="text-sm font-medium">Your new backup codes, shown only now. The old ones no longer work.</p>
            <BackupCodesPanel codes={newCodes} email={status.email} />
            <Button type="button" variant="outline" onClick={() => setNewCodes(null)}>
              I&apos;ve saved them — hide them
            </Button>
          </section>
        )}

        <CheckAuthenticator />

        <div className="flex flex-col gap-2 border-t pt-4 sm:flex-row">
          <Button type="button" variant="outline" onClick={() => (regenerate.reset(), setDialog('regenerate'))}>
            <KeyRound aria-hidden="true" />
            New backup codes
          </Button>
          <Button type="button" variant="outline" className="text-destructive" onClick={() => (disable.reset(), setDialog('disable'))}>
            <PowerOff aria-hidden="true" />
            Turn off
          </Button>
        </div>
      </CardContent>

      <ProofDialog
        open={dialog === 'regenerate'}
        onOpenChange={(open) => !open && setDialog(null)}
        title="Make new backup codes?"
        description="Your remaining backup codes stop working, and your other devices are signed out. Confirm with a code from your app or a backup code."
        actionLabel="Make new codes"
        pendingLabel="Making codes…"
        pending={regenerate.isPending}
        error={regenerate.error}
        onSubmit={(proof) =>
          regenerate.mutate(proof, {
            onSuccess: (result) => {
              setNewCodes(result.backupCodes);
              setDialog(null);
              toast({ title: 'New backup codes', description: `Save them now: they are shown once.${signedOutNote(result.otherSessionsSignedOut)}` });
            },
          })
        }
      />
      <ProofDialog
        open={dialog === 'disable'}
        onOpenChange={(open) => !open && setDialog(null)}
        title="Turn off the second step?"
        description="Signing in will need only your first step again, and your other devices are signed out. Confirm with a code from your app or a backup code."
        actionLabel="Turn off"
        pendingLabel="Turning off…"
        destructive
        pending={disable.isPending}
        error={disable.error}
        onSubmit={(proof) =>
          disable.mutate(proof, {
            onSuccess: (result) => {
              setDialog(null);
              toast({ title: 'Account TOTP turned off', description: `Your sign-in no longer asks for a code.${signedOutNote(result.otherSessionsSignedOut)}` });
            },
          })
        }
      />
    </Card>
  );
}

/** "Check my authenticator": type the phone's code, learn whether it matches. Not a sign-in. */
function CheckAuthenticator() {
  const [code, setCode] = useState('');
  const check = useCheckTotp();
  const ids = { code: useId(), result: useId() };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (code.length === 6 && !check.isPending) check.mutate(code);
  }

  return (
    <form onSubmit={submit} className="space-y-2" noValidate>
      <h3 className="text-sm font-semibold">
        <label htmlFor={ids.code}>Check my authenticator</label>
      </h3>
      <p className="text-xs text-muted-foreground">Type the code your app shows now to see whether it matches. It is not a sign-in; wrong codes count toward the limit of 5 in 15 minutes.</p>
      <div className="flex flex-wrap items-center gap-3">
        <SixDigitInput id={ids.code} value={code} onChange={(value) => (setCode(value), check.reset())} describedBy={ids.result} />
        <Button type="submit" variant="secondary" disabled={code.length !== 6 || check.isPending}>
          {check.isPending && <Spinner label="Checking" />}
          Check
        </Button>
      </div>
      <div id={ids.result} aria-live="polite" className="min-h-5 text-sm">
        {check.isSuccess &&
          (check.data.matches ? (
            <span className="flex items-center gap-1.5 font-medium text-success">
              <CheckCircle2 className="size-4" aria-hidden="true" /> It matches: your authenticator is set up right.
            </span>
          ) : (
            <span className="flex items-center gap-1.5 font-medium text-destructive">
              <XCircle className="size-4" aria-hidden="true" /> It does not match. Check the Sixdigit entry in your app, and that your phone&apos;s clock is set automatically.
            </span>
          ))}
        {check.isError && <span className="font-medium text-destructive">{proofErrorMessage(check.error, false)}</span>}
      </div>
    </form>
  );
}
