import { useId, useState, type FormEvent } from 'react';
import { Copy, Download, Fingerprint, KeyRound, LockKeyhole, ShieldCheck, TriangleAlert } from 'lucide-react';
import { WrongSecretError } from '@common/vault/crypto';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api';
import { useCopy } from '@/lib/use-copy';
import { cn } from '@/lib/utils';
import { PasskeyPrfError, passkeysAvailable } from './passkey-prf';
import { isNetworkFailure, type PreparedVault, type VaultSession } from './session';
import { MIN_PASSPHRASE_LENGTH, passphraseStrength } from './passphrase-strength';

function failure(error: unknown, fallback: string): string {
  if (error instanceof WrongSecretError) return error.message;
  if (isNetworkFailure(error)) return 'No connection. Try again when you are online.';
  return errorMessage(error, fallback);
}

/** The recovery key as a small text file the person keeps. */
export function downloadRecoveryKey(recoveryKey: string): void {
  const text = [
    'Sixdigit authenticator — vault recovery key',
    '',
    recoveryKey,
    '',
    'This key opens your authenticator vault if you forget its passphrase.',
    'Keep it offline and private: anyone with it and your sign-in can read your accounts.',
    'Sixdigit cannot recover your accounts without your passphrase or this key.',
    '',
  ].join('\n');
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'sixdigit-recovery-key.txt';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const STRENGTH_STYLE = { 'too-short': 'text-muted-foreground', weak: 'text-destructive', fair: 'text-warning', strong: 'text-success' } as const;

/** First use: choose a passphrase, then keep the recovery key (shown once) before the vault is stored. */
export function CreateVault({ session, legacyAccounts }: { session: VaultSession; legacyAccounts: number }) {
  const [prepared, setPrepared] = useState<PreparedVault | null>(null);
  return (
    <Card className="mx-auto max-w-xl">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="size-5 text-primary" aria-hidden="true" />
          {prepared ? 'Save your recovery key' : 'Create your encrypted vault'}
        </CardTitle>
        <CardDescription>
          {prepared
            ? 'It is shown once. With it you can open your vault if you forget the passphrase.'
            : 'Your accounts are encrypted on this device with a key only your passphrase (or recovery key) opens. Sixdigit stores only the encrypted vault and cannot read it.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {prepared ? <SaveRecoveryKey prepared={prepared} legacyAccounts={legacyAccounts} /> : <ChoosePassphrase session={session} legacyAccounts={legacyAccounts} onPrepared={setPrepared} />}
      </CardContent>
    </Card>
  );
}

function ChoosePassphrase({ session, legacyAccounts, onPrepared }: { session: VaultSession; legacyAccounts: number; onPrepared: (p: PreparedVault) => void }) {
  const id = useId();
  const [passphrase, setPassphrase] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const strength = passphraseStrength(passphrase);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (strength.level === 'too-short') return setProblem(`Use at least ${MIN_PASSPHRASE_LENGTH} characters.`);
    if (passphrase !== confirm) return setProblem('The two passphrases differ.');
    setBusy(true);
    try {
      onPrepared(await session.prepareVault(passphrase));
    } catch (error) {
      setProblem(failure(error, 'The vault could not be prepared.'));
      setBusy(false);
    }
  }

  return (
    <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
      {legacyAccounts > 0 && (
        <p className="rounded-md border border-primary/40 bg-primary/5 px-3 py-2 text-sm" role="note">
          You have {legacyAccounts} {legacyAccounts === 1 ? 'account' : 'accounts'} stored the old way, readable by our server. Creating the vault
          moves {legacyAccounts === 1 ? 'it' : 'them'} in, encrypted on this device, and deletes the server&apos;s copies in the same step.
        </p>
      )}
      <div className="space-y-2">
        <Label htmlFor={`${id}-p`}>Vault passphrase</Label>
        <Input
          id={`${id}-p`}
          type="password"
          autoComplete="new-password"
          value={passphrase}
          onChange={(e) => {
            setPassphrase(e.target.value);
            setProblem(null);
          }}
          aria-describedby={`${id}-s`}
        />
        <p id={`${id}-s`} className={cn('text-xs', STRENGTH_STYLE[strength.level])} aria-live="polite">
          {passphrase ? strength.hint : 'Four or more unrelated words are easy to remember and hard to guess.'}
        </p>
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${id}-c`}>Passphrase again</Label>
        <Input id={`${id}-c`} type="password" autoComplete="new-password" value={confirm} onChange={(e) => { setConfirm(e.target.value); setProblem(null); }} />
      </div>
      <p className="text-xs text-muted-foreground">
        Not your Sixdigit sign-in: nobody, Sixdigit included, can reset it. Forget it and lose the recovery key, and the accounts are gone.
      </p>
      {problem && (
        <p className="text-sm text-destructive" role="alert">
          {problem}
        </p>
      )}
      <Button type="submit" disabled={busy} className="w-full sm:w-auto">
        {busy ? <Spinner label="Preparing the vault" className="size-4" /> : <LockKeyhole aria-hidden="true" />}
        {busy ? 'Preparing…' : 'Continue'}
      </Button>
    </form>
  );
}

function SaveRecoveryKey({ prepared, legacyAccounts }: { prepared: PreparedVault; legacyAccounts: number }) {
  const id = useId();
  const { copied, copy } = useCopy();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function finish() {
    setBusy(true);
    setProblem(null);
    try {
      await prepared.commit();
    } catch (error) {
      setProblem(failure(error, 'The vault could not be stored. Try again.'));
      setBusy(false);
    }
  }

  return (
    <div className="space-y-4">
      <p className="rounded-md border bg-muted/40 px-3 py-4 text-center font-mono text-base font-semibold tracking-wider break-words sm:text-lg" data-testid="recovery-key">
        {prepared.recoveryKey}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" onClick={() => void copy('recovery', prepared.recoveryKey, { title: 'Recovery key copied', description: 'Paste it somewhere safe and offline.' })}>
          <Copy aria-hidden="true" />
          {copied === 'recovery' ? 'Copied' : 'Copy'}
        </Button>
        <Button type="button" variant="outline" onClick={() => downloadRecoveryKey(prepared.recoveryKey)}>
          <Download aria-hidden="true" />
          Download
        </Button>
      </div>
      <label htmlFor={id} className="flex items-start gap-2 text-sm">
        <input id={id} type="checkbox" className="mt-0.5 size-4" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
        I have saved my recovery key somewhere safe. Sixdigit cannot show it again.
      </label>
      {problem && (
        <p className="text-sm text-destructive" role="alert">
          {problem}
        </p>
      )}
      <Button type="button" disabled={!saved || busy} onClick={() => void finish()} className="w-full sm:w-auto">
        {busy && <Spinner label="Storing the vault" className="size-4" />}
        {legacyAccounts > 0 ? `Create vault and move ${legacyAccounts} ${legacyAccounts === 1 ? 'account' : 'accounts'} in` : 'Create vault'}
      </Button>
    </div>
  );
}

/** Locked: the passphrase or the recovery key opens it; a way out when both are lost. */
export function UnlockVault({ session, hasRecoverySlot, hasPasskeySlot, offline }: { session: VaultSession; hasRecoverySlot: boolean; hasPasskeySlot: boolean; offline: boolean }) {
  const [forgotten, setForgotten] = useState(false);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const [passkeyProblem, setPasskeyProblem] = useState<string | null>(null);

  async function withPasskey() {
    setPasskeyBusy(true);
    setPasskeyProblem(null);
    try {
      await session.unlockWithPasskey();
    } catch (error) {
      setPasskeyProblem(error instanceof PasskeyPrfError ? error.message : failure(error, 'The passkey did not unlock the vault.'));
      setPasskeyBusy(false);
    }
  }
  return (
    <Card className="mx-auto max-w-xl">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <LockKeyhole className="size-5 text-primary" aria-hidden="true" />
          Your vault is locked
        </CardTitle>
        <CardDescription>Unlock it on this device to see your codes. {offline && 'You are offline: the copy saved on this device is used.'}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {forgotten ? (
          <StartOver session={session} onBack={() => setForgotten(false)} offline={offline} />
        ) : (
          <>
            {hasPasskeySlot && passkeysAvailable() && (
              <div className="space-y-2">
                <Button type="button" className="w-full sm:w-auto" disabled={passkeyBusy} onClick={() => void withPasskey()}>
                  {passkeyBusy ? <Spinner label="Waiting for the passkey" className="size-4" /> : <Fingerprint aria-hidden="true" />}
                  Unlock with a passkey
                </Button>
                {passkeyProblem && (
                  <p className="text-sm text-destructive" role="alert">
                    {passkeyProblem}
                  </p>
                )}
              </div>
            )}
            <Tabs defaultValue="passphrase" className="gap-4">
              <TabsList className="w-full" aria-label="Unlock with">
                <TabsTrigger value="passphrase">Passphrase</TabsTrigger>
                {hasRecoverySlot && <TabsTrigger value="recovery">Recovery key</TabsTrigger>}
              </TabsList>
              <TabsContent value="passphrase">
                <SecretForm label="Vault passphrase" autoComplete="current-password" onUnlock={(secret) => session.unlockWithPassphrase(secret)} />
              </TabsContent>
              {hasRecoverySlot && (
                <TabsContent value="recovery">
                  <SecretForm label="Recovery key" placeholder="XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX" monospace onUnlock={(secret) => session.unlockWithRecoveryKey(secret)} />
                </TabsContent>
              )}
            </Tabs>
            <button type="button" className="text-sm text-muted-foreground underline underline-offset-4 hover:text-foreground" onClick={() => setForgotten(true)}>
              Forgot the passphrase and lost the recovery key?
            </button>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function SecretForm({ label, onUnlock, autoComplete = 'off', placeholder, monospace }: { label: string; onUnlock: (secret: string) => Promise<void>; autoComplete?: string; placeholder?: string; monospace?: boolean }) {
  const id = useId();
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await onUnlock(secret);
    } catch (error) {
      setProblem(failure(error, 'The vault could not be unlocked.'));
      setBusy(false);
    }
  }

  return (
    <form className="space-y-3" onSubmit={(event) => void submit(event)}>
      <div className="space-y-2">
        <Label htmlFor={id}>{label}</Label>
        <Input
          id={id}
          type={monospace ? 'text' : 'password'}
          autoComplete={autoComplete}
          spellCheck={false}
          autoCapitalize="characters"
          placeholder={placeholder}
          className={monospace ? 'font-mono' : undefined}
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-e` : undefined}
        />
      </div>
      {problem && (
        <p id={`${id}-e`} className="text-sm text-destructive" role="alert">
          {problem}
        </p>
      )}
      <Button type="submit" disabled={busy || !secret}>
        {busy ? <Spinner label="Unlocking" className="size-4" /> : <KeyRound aria-hidden="true" />}
        {busy ? 'Unlocking…' : 'Unlock'}
      </Button>
    </form>
  );
}

function StartOver({ session, onBack, offline }: { session: VaultSession; onBack: () => void; offline: boolean }) {
  const id = useId();
  const [understood, setUnderstood] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function discard() {
    setBusy(true);
    try {
      await session.discardVault();
    } catch (error) {
      setProblem(failure(error, 'The vault could not be deleted.'));
      setBusy(false);
    }
  }

  return (
    <div className="space-y-4" role="region" aria-label="Start a new vault">
      <p className="flex gap-2 rounded-md border border-destructive/50 bg-destructive/5 px-3 py-3 text-sm">
        <TriangleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
        <span>
          Without the passphrase or the recovery key nobody can open this vault — not you, not Sixdigit, not support. The accounts in it cannot be
          recovered. You can start a new, empty vault and add your accounts again (each site&apos;s own recovery lets you set up two-factor
          authentication anew).
        </span>
      </p>
      <label htmlFor={id} className="flex items-start gap-2 text-sm">
        <input id={id} type="checkbox" className="mt-0.5 size-4" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} />
        I understand that every account in my current vault is deleted for good.
      </label>
      {problem && (
        <p className="text-sm text-destructive" role="alert">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="destructive" disabled={!understood || busy || offline} onClick={() => void discard()}>
          Delete the vault and start again
        </Button>
        <Button type="button" variant="outline" onClick={onBack}>
          Back to unlock
        </Button>
      </div>
    </div>
  );
}
