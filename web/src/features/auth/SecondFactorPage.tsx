import { useId, useState, type FormEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { KeyRound, LogOut, ShieldCheck, TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { SixDigitInput } from '@/components/SixDigitInput';
import { PasskeySecondStep } from '@/features/passkeys/PasskeySecondStep';
import { hardNavigate } from '@/lib/navigation';
import { useDocumentTitle } from '@/lib/use-document-title';
import { LOGOUT_URL, loginUrl, useCurrentUser } from './api';
import { secondFactorErrorMessage, useCompleteSecondFactor } from './second-factor-api';

/** Only our own paths are returned to (the server checks its redirects the same way). */
export function safeReturnTo(candidate: string | null): string {
  // Control characters and backslashes have no place in our own paths (a browser reads `/\host` as `//host`).
  // eslint-disable-next-line no-control-regex
  if (!candidate || !candidate.startsWith('/') || candidate.startsWith('//') || /[\\\u0000-\u001f]/.test(candidate)) return '/';
  return candidate;
}

/**
 * /sign-in/second-factor (issue 19): the first step (Google, or the development sign-in) is done,
 * and the account TOTP protects this account — a code from the app, a backup code or a passkey
 * finishes signing in. Every other page sends a half-signed-in session here.
 */
export function SecondFactorPage() {
  useDocumentTitle('Finish signing in · Sixdigit');
  const { user, secondFactorRequired, isLoading } = useCurrentUser();
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('returnTo'));
  const [mode, setMode] = useState<'code' | 'backup'>('code');
  const [code, setCode] = useState('');
  const [backupCode, setBackupCode] = useState('');
  const complete = useCompleteSecondFactor();
  const ids = { code: useId(), backup: useId(), error: useId(), title: useId() };

  if (isLoading) return <PageSpinner label="Loading" />;
  // Already through (another tab finished), or not signed in at all.
  if (user) return <Navigate to={returnTo} replace />;

  // A full load: the app starts again with the now complete session.
  const done = () => hardNavigate(returnTo);
  const usingBackup = mode === 'backup';
  const ready = usingBackup ? backupCode.replace(/[^0-9a-z]/gi, '').length >= 8 : code.length === 6;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready || complete.isPending) return;
    complete.mutate(usingBackup ? { backupCode: backupCode.trim() } : { code }, {
      onSuccess: done,
      onError: () => (usingBackup ? setBackupCode('') : setCode('')),
    });
  }

  function switchMode() {
    setMode(usingBackup ? 'code' : 'backup');
    complete.reset();
  }

  if (!secondFactorRequired) {
    return (
      <div className="mx-auto w-full max-w-md px-4 py-12">
        <Card>
          <CardHeader>
            <CardTitle>You are not signed in</CardTitle>
            <CardDescription>Sign in first; if your account asks for a second step, it comes next.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button type="button" onClick={() => hardNavigate(loginUrl(returnTo))}>
              Sign in
            </Button>
          </CardContent>
        </Card>
      </div>
    );
  }

  const error = complete.isError ? secondFactorErrorMessage(complete.error, usingBackup) : null;
  return (
    <div className="mx-auto w-full max-w-md px-4 py-8 sm:py-12">
      <Card aria-labelledby={ids.title}>
        <CardHeader className="gap-3">
          <span className="flex size-11 items-center justify-center rounded-lg bg-primary/10 text-primary">
            <ShieldCheck className="size-5" aria-hidden="true" />
          </span>
          <h1 id={ids.title} className="text-2xl leading-tight font-semibold tracking-tight">
            Finish signing in
          </h1>
          <CardDescription className="text-base">
            {usingBackup
              ? 'Enter one of the backup codes you saved when you set up your account TOTP. Each works once.'
              : 'Your account is protected by a second step. Enter the 6-digit code your authenticator app shows for Sixdigit.'}
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <form className="space-y-4" onSubmit={submit} noValidate>
            {usingBackup ? (
              <div className="space-y-2">
                <Label htmlFor={ids.backup}>Backup code</Label>
                <Input
                  id={ids.backup}
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  autoFocus
                  placeholder="xxxx-xxxx"
                  maxLength={32}
                  value={backupCode}
                  aria-invalid={Boolean(error) || undefined}
                  aria-describedby={error ? ids.error : undefined}
                  onChange={(e) => setBackupCode(e.target.value)}
                  className="h-12 max-w-[13rem] font-mono text-lg"
                />
              </div>
            ) : (
              <div className="space-y-2">
                <Label htmlFor={ids.code}>Authenticator code</Label>
                <SixDigitInput id={ids.code} value={code} onChange={setCode} autoFocus invalid={Boolean(error)} describedBy={error ? ids.error : undefined} />
              </div>
            )}
            {error && (
              <p id={ids.error} role="alert" className="flex items-start gap-2 text-sm font-medium text-destructive">
                <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                {error}
              </p>
            )}
            <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={!ready || complete.isPending}>
              {complete.isPending ? <Spinner label="Checking" className="text-primary-foreground" /> : null}
              {complete.isPending ? 'Checking…' : 'Continue'}
            </Button>
          </form>

          <div className="space-y-3 border-t pt-4 text-sm">
            <Button type="button" variant="link" className="h-auto p-0" onClick={switchMode}>
              <KeyRound aria-hidden="true" />
              {usingBackup ? 'Use the code from my app instead' : 'Use a backup code instead'}
            </Button>
            <PasskeySecondStep onDone={done} />
            <p className="text-muted-foreground">
              Lost your phone and your backup codes? Sign out and write to us from the Contact page: after checking it is you,
              support can turn the second step off.
            </p>
          </div>

          <Button type="button" variant="outline" className="w-full" onClick={() => hardNavigate(LOGOUT_URL)}>
            <LogOut aria-hidden="true" />
            Sign out
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
