import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, WebAuthnAbortService } from '@simplewebauthn/browser';
import { KeyRound, TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { hardNavigate } from '@/lib/navigation';
import { useDocumentTitle } from '@/lib/use-document-title';
import { isCancelled, passkeyErrorMessage, signInWithPasskey } from './api';

/** Only a path on this site, never the API or another host (the server checks its own redirects the same way). */
function safeReturnTo(candidate: string | null): string {
  if (!candidate || !candidate.startsWith('/') || candidate.startsWith('//') || candidate.includes('\\') || candidate.startsWith('/api/')) return '/';
  return candidate;
}

/**
 * /sign-in/passkey: the passkey ceremony, which the server-rendered sign-in page (no script under
 * our CSP) links to. "Sign in with a passkey" shows the browser's passkey dialog; where the
 * browser offers it, the account field also lists passkeys in its autofill (conditional mediation).
 */
export function PasskeySignInPage() {
  useDocumentTitle('Sign in with a passkey · Sixdigit');
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('returnTo'));
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ message: string; quiet: boolean } | null>(null);
  const [supported] = useState(() => typeof window !== 'undefined' && browserSupportsWebAuthn());
  const fieldId = useId();

  useEffect(() => {
    if (!supported) return;
    let live = true;
    void browserSupportsWebAuthnAutofill().then((autofill) => {
      if (!autofill || !live) return;
      signInWithPasskey(true).then(
        () => hardNavigate(returnTo),
        (err: unknown) => {
          // Superseded by the button, or the page left: nothing to say.
          if (live && !isCancelled(err)) setError({ message: passkeyErrorMessage(err), quiet: false });
        },
      );
    });
    return () => {
      live = false;
      WebAuthnAbortService.cancelCeremony();
    };
  }, [supported, returnTo]);

  async function run() {
    setPending(true);
    setError(null);
    try {
      await signInWithPasskey();
      hardNavigate(returnTo);
    } catch (err) {
      setError({ message: passkeyErrorMessage(err), quiet: isCancelled(err) });
      setPending(false);
    }
  }

  return (
    <div className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center px-4 py-10">
      <Card>
        <CardHeader>
          <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight">
            <KeyRound className="size-6 text-primary" aria-hidden="true" />
            Sign in with a passkey
          </h1>
          <CardDescription>
            Use the fingerprint, face or PIN of a device where you added a Sixdigit passkey. Nothing to type, nothing a fake
            site could catch.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {supported ? (
            <>
              <div className="space-y-2">
                <Label htmlFor={fieldId}>E-mail</Label>
                {/* Conditional mediation: the browser lists this site's passkeys in this field's autofill. */}
                <Input id={fieldId} name="username" type="email" autoComplete="username webauthn" placeholder="Pick a passkey from autofill" />
              </div>
              <Button type="button" className="w-full" onClick={() => void run()} disabled={pending}>
                {pending ? <Spinner label="Waiting for your passkey" className="size-4 text-primary-foreground" /> : <KeyRound aria-hidden="true" />}
                {pending ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
              </Button>
            </>
          ) : (
            <p className="text-sm text-muted-foreground">This browser cannot use passkeys. Sign in another way below.</p>
          )}
          {error && (
            <p role="alert" className={`flex items-start gap-2 text-sm ${error.quiet ? 'text-muted-foreground' : 'text-destructive'}`}>
              <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {error.message}
            </p>
          )}
          <p className="text-center text-sm text-muted-foreground">
            No passkey yet?{' '}
            <a className="font-medium text-primary underline-offset-4 hover:underline" href={`/api/login?returnTo=${encodeURIComponent(returnTo)}`}>
              Sign in another way
            </a>{' '}
            and add one on the Account TOTP page.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
