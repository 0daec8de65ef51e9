import { useId, useState, type FormEvent } from 'react';
import { ChevronDown, Copy, Download } from 'lucide-react';
import { WrongSecretError } from '@common/vault/crypto';
import { Button } from '@/components/ui/button';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useCopy } from '@/lib/use-copy';
import { MIN_PASSPHRASE_LENGTH, passphraseStrength } from './passphrase-strength';
import { PasskeyPrfError, passkeysAvailable } from './passkey-prf';
import { OfflineError, type VaultSession } from './session';
import { downloadRecoveryKey } from './VaultScreens';

function failure(error: unknown): string {
  if (error instanceof WrongSecretError) return 'That is not your current passphrase.';
  if (error instanceof PasskeyPrfError) return error.message;
  if (error instanceof OfflineError) return error.message;
  return errorMessage(error, 'That did not work. Try again.');
}

/** Change the passphrase or make a new recovery key: the entries stay as they are. */
export function VaultSettings({ session, offline, passkeys }: { session: VaultSession; offline: boolean; passkeys: number }) {
  const [open, setOpen] = useState(false);
  return (
    <Collapsible open={open} onOpenChange={setOpen} className="rounded-lg border">
      <CollapsibleTrigger asChild>
        <button type="button" className="flex w-full items-center justify-between px-4 py-3 text-left text-sm font-medium">
          Vault passphrase, recovery key and passkeys
          <ChevronDown className={open ? 'size-4 rotate-180 transition-transform' : 'size-4 transition-transform'} aria-hidden="true" />
        </button>
      </CollapsibleTrigger>
      <CollapsibleContent className="grid gap-6 border-t px-4 py-4 md:grid-cols-2">
        <ChangePassphrase session={session} offline={offline} />
        <NewRecoveryKey session={session} offline={offline} />
        {passkeysAvailable() && <PasskeyUnlock session={session} offline={offline} passkeys={passkeys} />}
      </CollapsibleContent>
    </Collapsible>
  );
}

function ChangePassphrase({ session, offline }: { session: VaultSession; offline: boolean }) {
  const id = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const strength = passphraseStrength(next);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (strength.level === 'too-short') return setProblem(`Use at least ${MIN_PASSPHRASE_LENGTH} characters.`);
    if (next !== again) return setProblem('The two new passphrases differ.');
    setBusy(true);
    setProblem(null);
    try {
      await session.changePassphrase(current, next);
      setCurrent('');
      setNext('');
      setAgain('');
      toast({ title: 'Passphrase changed', description: 'Your other devices unlock with the new passphrase from now on.' });
    } catch (error) {
      setProblem(failure(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="space-y-3" onSubmit={(event) => void submit(event)} aria-label="Change the vault passphrase">
      <h3 className="text-sm font-semibold">Change the passphrase</h3>
      <div className="space-y-1">
        <Label htmlFor={`${id}-c`}>Current passphrase</Label>
        <Input id={`${id}-c`} type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
      </div>
      <div className="space-y-1">
        <Label htmlFor={`${id}-n`}>New passphrase</Label>
        <Input id={`${id}-n`} type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} aria-describedby={`${id}-s`} />
        <p id={`${id}-s`} className="text-xs text-muted-foreground" aria-live="polite">
          {next ? strength.hint : 'Four or more unrelated words.'}
        </p>
      </div>
      <div className="space-y-1">
        <Label htmlFor={`${id}-a`}>New passphrase again</Label>
        <Input id={`${id}-a`} type="password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} />
      </div>
      {problem && (
        <p className="text-sm text-destructive" role="alert">
          {problem}
        </p>
      )}
      <Button type="submit" variant="outline" disabled={busy || offline || !current || !next}>
        {busy && <Spinner label="Changing the passphrase" className="size-4" />}
        Change passphrase
      </Button>
    </form>
  );
}

function NewRecoveryKey({ session, offline }: { session: VaultSession; offline: boolean }) {
  const id = useId();
  const { copied, copy } = useCopy();
  const [current, setCurrent] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [made, setMade] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      setMade(await session.replaceRecoveryKey(current));
      setCurrent('');
    } catch (error) {
      setProblem(failure(error));
    } finally {
      setBusy(false);
    }
  }

  if (made) {
    return (
      <div className="space-y-3">
        <h3 className="text-sm font-semibold">Your new recovery key</h3>
        <p className="rounded-md border bg-muted/40 px-3 py-3 text-center font-mono font-semibold tracking-wider break-words" data-testid="new-recovery-key">
          {made}
        </p>
        <p className="text-xs text-muted-foreground">Shown once. The old recovery key no longer opens the vault.</p>
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" onClick={() => void copy('new-recovery', made, { title: 'Recovery key copied' })}>
            <Copy aria-hidden="true" />
            {copied === 'new-recovery' ? 'Copied' : 'Copy'}
          </Button>
          <Button type="button" variant="outline" onClick={() => downloadRecoveryKey(made)}>
            <Download aria-hidden="true" />
            Download
          </Button>
          <Button type="button" onClick={() => setMade(null)}>
            I saved it
          </Button>
        </div>
      </div>
    );
  }

  return (
    <form className="space-y-3" onSubmit={(event) => void submit(event)} aria-label="Make a new recovery key">
      <h3 className="text-sm font-semibold">Make a new recovery key</h3>
      <p className="text-xs text-muted-foreground">If the old one may have been seen or is lost. The old key stops working.</p>
      <div className="space-y-1">
        <Label htmlFor={id}>Current passphrase</Label>
        <Input id={id} type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
      </div>
      {problem && (
        <p className="text-sm text-destructive" role="alert">
          {problem}
        </p>
      )}
      <Button type="submit" variant="outline" disabled={busy || offline || !current}>
        {busy && <Spinner label="Making a new recovery key" className="size-4" />}
        New recovery key
      </Button>
    </form>
  );
}

/** A passkey with PRF (added on /totp) can unlock the vault too: its output wraps the vault key. */
function PasskeyUnlock({ session, offline, passkeys }: { session: VaultSession; offline: boolean; passkeys: number }) {
  const id = useId();
  const [current, setCurrent] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function run(action: 'add' | 'remove') {
    setBusy(true);
    setProblem(null);
    try {
      if (action === 'add') await session.addPasskey(current);
      else await session.removePasskeys(current);
      setCurrent('');
      toast({ title: action === 'add' ? 'Passkey added' : 'Passkeys removed', description: action === 'add' ? 'It now unlocks your vault on any device that has it.' : 'Only the passphrase and the recovery key unlock the vault now.' });
    } catch (error) {
      setProblem(failure(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="space-y-3 md:col-span-2" onSubmit={(event) => { event.preventDefault(); void run('add'); }} aria-label="Unlock with a passkey">
      <h3 className="text-sm font-semibold">Unlock with a passkey</h3>
      <p className="text-xs text-muted-foreground">
        {passkeys > 0 ? `${passkeys} ${passkeys === 1 ? 'passkey unlocks' : 'passkeys unlock'} this vault. ` : ''}
        A passkey that supports PRF (add one under Account TOTP → Passkeys) can unlock the vault without the passphrase. Sixdigit never sees what it unlocks with.
      </p>
      <div className="max-w-sm space-y-1">
        <Label htmlFor={id}>Current passphrase</Label>
        <Input id={id} type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
      </div>
      {problem && (
        <p className="text-sm text-destructive" role="alert">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="outline" disabled={busy || offline || !current}>
          {busy && <Spinner label="Waiting for the passkey" className="size-4" />}
          Add a passkey
        </Button>
        {passkeys > 0 && (
          <Button type="button" variant="ghost" disabled={busy || offline || !current} onClick={() => void run('remove')}>
            Remove passkey unlock
          </Button>
        )}
      </div>
    </form>
  );
}
