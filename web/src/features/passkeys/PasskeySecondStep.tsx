import { useState } from 'react';
import { KeyRound, TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { isCancelled, passkeyErrorMessage, signInWithPasskey } from './api';

/**
 * "Use a passkey" on the second step of sign-in: the ceremony runs against the half-signed-in
 * session (the server offers only this person's passkeys and completes this session).
 */
export function PasskeySecondStep({ onDone }: { onDone: () => void }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ message: string; quiet: boolean } | null>(null);

  async function run() {
    setPending(true);
    setError(null);
    try {
      await signInWithPasskey();
      onDone();
    } catch (err) {
      setError({ message: passkeyErrorMessage(err), quiet: isCancelled(err) });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-2">
      <Button type="button" variant="outline" className="w-full" onClick={() => void run()} disabled={pending}>
        {pending ? <Spinner label="Waiting for your passkey" className="size-4" /> : <KeyRound aria-hidden="true" />}
        {pending ? 'Waiting for your passkey…' : 'Use a passkey'}
      </Button>
      {error && (
        <p role="alert" className={`flex items-start gap-2 text-sm ${error.quiet ? 'text-muted-foreground' : 'text-destructive'}`}>
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {error.message}
        </p>
      )}
    </div>
  );
}
