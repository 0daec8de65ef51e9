import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  BadgeIndianRupee,
  Building2,
  CheckCircle2,
  ClipboardList,
  Copy,
  Download,
  KeyRound,
  LayoutDashboard,
  LogIn,
  LogOut,
  ShieldCheck,
  ShieldX,
  UserCog,
  Users,
} from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { LOGOUT_URL, loginUrl, useCurrentUser, type CurrentUser } from '@/features/auth/api';
import { ApiError, isUnauthorized } from '@/lib/api';
import { useCopy } from '@/lib/use-copy';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useMfaConfirm, useMfaSetup, useMfaStatus, useMfaVerify, type MfaSetup, type MfaStatus } from './api';
import { GateCard } from '@/components/GateCard';
import { AdminMfaPasskeyButton } from '@/features/passkeys/AdminMfaPasskeyButton';
import { SixDigitInput, useCountdown } from './components/AdminShell';

export const ADMIN_TOOLS = [
  { to: '/admin/dashboard', label: 'Admin dashboard', description: 'Users, keys, verifications, revenue and service status', icon: LayoutDashboard },
  { to: '/admin/payments', label: 'Payment approvals', description: 'Review bank and UPI payments', icon: BadgeIndianRupee },
  { to: '/admin/businesses', label: 'Businesses', description: 'Balances, grants, rate limits, suspension', icon: Building2 },
  { to: '/admin/impersonation', label: 'Impersonation', description: 'See the product as a customer does', icon: Users },
  { to: '/admin/roles', label: 'Role management', description: 'Assign and remove Financial Managers', icon: UserCog },
  { to: '/admin/audit', label: 'Audit log', description: 'Every admin and money action, exportable', icon: ClipboardList },
] as const;

/** /admin (SPEC "Admin security setup"): the administrator's MFA, then the way into the tools. */
export function AdminSetupPage() {
  useDocumentTitle('Admin security · Sixdigit');
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <PageSpinner label="Loading" />;
  if (!user) {
    return (
      <GateCard icon={LogIn} title="Authentication Required">
        <p className="text-sm text-muted-foreground">Log in with the administrator account to continue.</p>
        <Button asChild>
          <a href={loginUrl('/admin')}>Login</a>
        </Button>
      </GateCard>
    );
  }
  if (!user.isAdmin || user.impersonation) {
    return (
      <GateCard icon={ShieldX} title="Access Denied" alert>
        <p className="text-sm">Only the system administrator can open this page.</p>
        <p className="text-sm text-muted-foreground">
          You are signed in as <strong className="font-medium text-foreground break-all">{user.email}</strong>.
        </p>
      </GateCard>
    );
  }
  return <AdminSecurity user={user} />;
}

function AdminSecurity({ user }: { user: CurrentUser }) {
  const status = useMfaStatus(true);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  // Verified earlier in this visit: when that lapses, say "Session Expired" rather than ask afresh.
  const [wasVerified, setWasVerified] = useState(false);
  const left = useCountdown(status.data?.verifiedUntil ?? null);

  useEffect(() => {
    if (status.error && isUnauthorized(status.error)) {
      toast({ variant: 'destructive', title: 'Session Expired', description: 'Please log in again to continue.' });
      const timer = setTimeout(() => window.location.assign(loginUrl('/admin')), 1000);
      return () => clearTimeout(timer);
    }
  }, [status.error]);

  if (status.isPending) return <PageSpinner label="Loading" />;
  if (status.isError) {
    return (
      <GateCard icon={ShieldX} title="Could not load the MFA status" alert>
        <Button type="button" variant="outline" onClick={() => void status.refetch()}>
          Try again
        </Button>
      </GateCard>
    );
  }
  const mfa = status.data;
  const verified = mfa.mfaVerified && (left === null || left > 0);
  const expired = wasVerified && !verified;
  if (verified && !wasVerified) setWasVerified(true);

  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 px-4 py-8 sm:px-6">
      <header className="space-y-1">
        <p className="text-sm font-medium text-primary">Administration</p>
        <h1 className="text-3xl font-bold tracking-tight">Admin security</h1>
        <p className="text-sm text-muted-foreground">Every admin operation needs a code from your authenticator app, valid for 30 minutes in this session.</p>
      </header>

      <StatusOverview user={user} mfa={mfa} verified={verified} msLeft={left} />

      {recoveryCodes && <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />}

      {!mfa.mfaConfigured ? (
        <SetupCard onConfirmed={setRecoveryCodes} />
      ) : !verified ? (
        <VerifyCard expired={expired} />
      ) : (
        !recoveryCodes && <ToolLinks />
      )}

      <Card>
        <CardHeader>
          <CardTitle className="text-base">How the admin area is protected</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-2 text-sm text-muted-foreground sm:grid-cols-2">
            <li>Only the account whose e-mail is ADMIN_EMAIL is the administrator.</li>
            <li>RFC 6238 codes from an authenticator app; each code works once.</li>
            <li>The first MFA setup needs a one-time enrolment code that only the server operator can see.</li>
            <li>At most 5 wrong codes in 15 minutes, counted on the server.</li>
            <li>The MFA secret is stored encrypted (AES-256-GCM); recovery codes only as hashes.</li>
            <li>Every admin action is checked on the server and written to the audit log.</li>
            <li>Impersonation is time-boxed, audited, and told to the user afterwards.</li>
          </ul>
        </CardContent>
      </Card>

      <div className="flex justify-end">
        <Button asChild variant="outline">
          <a href={LOGOUT_URL}>
            <LogOut aria-hidden="true" />
            Clear Session &amp; Re-login
          </a>
        </Button>
      </div>
    </div>
  );
}

function StatusOverview({ user, mfa, verified, msLeft }: { user: CurrentUser; mfa: MfaStatus; verified: boolean; msLeft: number | null }) {
  const minutes = msLeft === null ? null : Math.ceil(msLeft / 60_000);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Status</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4 text-sm sm:grid-cols-3">
          <div className="space-y-1">
            <dt className="text-muted-foreground">Administrator</dt>
            <dd className="font-medium break-all">{user.email}</dd>
          </div>
          <div className="space-y-1">
            <dt className="text-muted-foreground">MFA</dt>
            <dd>{mfa.mfaConfigured ? <Badge variant="success">Configured</Badge> : <Badge variant="destructive">Setup Required</Badge>}</dd>
          </div>
          <div className="space-y-1">
            <dt className="text-muted-foreground">Admin access</dt>
            <dd className="flex flex-wrap items-center gap-2">
              {verified ? <Badge variant="success">Active</Badge> : <Badge variant="secondary">Requires MFA</Badge>}
              {verified && minutes !== null && <span className="text-xs text-muted-foreground">{minutes} min left</span>}
            </dd>
          </div>
        </dl>
        {mfa.mfaConfigured && <p className="mt-3 text-xs text-muted-foreground">{mfa.recoveryCodesLeft} of 10 recovery codes left.</p>}
      </CardContent>
    </Card>
  );
}

function failureToast(error: unknown) {
  const throttled = error instanceof ApiError && error.code === 'too_many_attempts';
  toast({
    variant: 'destructive',
    title: 'Verification Failed',
    description: throttled ? (error as ApiError).serverMessage ?? 'Too many wrong codes.' : 'Invalid code. Please try again.',
  });
}

/** What the server calls a missing, wrong, expired or used enrolment code. */
const ENROLMENT_ERRORS = new Set(['enrolment_code_required', 'enrolment_code_invalid', 'too_many_attempts']);

function SetupCard({ onConfirmed }: { onConfirmed: (codes: string[]) => void }) {
  const setup = useMfaSetup();
  const confirm = useMfaConfirm();
  const [enrolmentCode, setEnrolmentCode] = useState('');
  const [enrolmentError, setEnrolmentError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const codeId = useId();
  const enrolmentId = useId();
  const enrolmentHelpId = useId();
  const enrolmentErrorId = useId();
  const { copied, copy } = useCopy();
  const data: MfaSetup | undefined = setup.data;

  function start(event: FormEvent) {
    event.preventDefault();
    if (!enrolmentCode.trim()) return;
    setEnrolmentError(null);
    setup.mutate(
      { enrolmentCode: enrolmentCode.trim() },
      {
        onError: (error) => {
          if (error instanceof ApiError && error.code && ENROLMENT_ERRORS.has(error.code)) {
            const message = error.code === 'too_many_attempts' ? (error.serverMessage ?? 'Too many wrong codes.') : 'That enrolment code is wrong, expired or already used. Get a new one and try again.';
            // Said beside the field (role="alert"), where the next code is typed.
            setEnrolmentError(message);
            return;
          }
          toast({ variant: 'destructive', title: 'Setup Failed', description: `Failed to setup MFA: ${error instanceof ApiError ? `${error.status} ${error.serverMessage ?? error.body}` : 'network error'}` });
        },
      },
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (code.length !== 6) return;
    confirm.mutate(
      { totpCode: code },
      {
        onSuccess: (result) => {
          toast({ title: 'MFA Enabled', description: 'Save your recovery codes now: they are shown once.' });
          onConfirmed(result.recoveryCodes);
        },
        onError: (error) => {
          setCode('');
          failureToast(error);
        },
      },
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <KeyRound className="size-4 text-primary" aria-hidden="true" />
          Set up authenticator-app MFA
        </CardTitle>
        <CardDescription>
          {data
            ? 'Scan the QR code with Google Authenticator, Aegis, 1Password or any RFC 6238 app, then enter the code it shows.'
            : 'First enter the one-time enrolment code from the server operator. Signing in alone is not enough to set up the admin MFA.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        {!data ? (
          <form onSubmit={start} className="space-y-3">
            <div className="space-y-2">
              <Label htmlFor={enrolmentId}>Enrolment code</Label>
              <input
                id={enrolmentId}
                value={enrolmentCode}
                onChange={(e) => {
                  setEnrolmentCode(e.target.value.slice(0, 40));
                  setEnrolmentError(null);
                }}
                placeholder="XXXX-XXXX-XXXX-XXXX"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                autoFocus
                aria-describedby={enrolmentError ? `${enrolmentHelpId} ${enrolmentErrorId}` : enrolmentHelpId}
                aria-invalid={enrolmentError ? true : undefined}
                className="h-11 w-full max-w-xs rounded-md border border-input bg-background px-3 font-mono text-base tracking-wider uppercase shadow-sm placeholder:text-muted-foreground/60 placeholder:normal-case focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none aria-invalid:border-destructive"
              />
              <div id={enrolmentHelpId} className="space-y-2 text-sm text-muted-foreground">
                <p>Find it in the server&apos;s start-up log, on the line &ldquo;Admin MFA is not set up: enrolment code …&rdquo;, or have the operator print a new one:</p>
                <code className="block w-fit max-w-full rounded bg-muted px-2 py-1 font-mono text-xs break-words text-foreground">npm run cli -- admin:mfa-enrol-code</code>
                <p>Valid 15 minutes and once; upper or lower case, with or without dashes.</p>
              </div>
              {enrolmentError && (
                <p id={enrolmentErrorId} role="alert" className="text-sm font-medium text-destructive">
                  {enrolmentError}
                </p>
              )}
            </div>
            <Button type="submit" disabled={!enrolmentCode.trim() || setup.isPending}>
              {setup.isPending && <Spinner label="Preparing" className="text-primary-foreground" />}
              Set up MFA
            </Button>
          </form>
        ) : (
          <div className="grid gap-6 sm:grid-cols-[auto_1fr]">
            <img src={data.qrCodeUrl} alt="QR code for your authenticator app" width={200} height={200} className="rounded-md border bg-white p-2" />
            <div className="min-w-0 space-y-4">
              <div className="space-y-1">
                <p className="text-sm font-medium">Or type this key</p>
                <div className="flex items-center gap-2">
                  <code className="rounded bg-muted px-2 py-1 font-mono text-sm break-all" data-testid="mfa-secret">
                    {data.manualEntry}
                  </code>
                  <Button type="button" variant="ghost" size="icon" aria-label={copied === 'secret' ? 'Secret key copied' : 'Copy secret key'} onClick={() => void copy('secret', data.secret, { title: 'Copied!' })}>
                    <Copy aria-hidden="true" />
                  </Button>
                </div>
              </div>
              <form onSubmit={submit} className="space-y-2">
                <Label htmlFor={codeId}>6-digit code</Label>
                <div className="flex flex-wrap items-center gap-3">
                  <SixDigitInput id={codeId} value={code} onChange={setCode} autoFocus />
                  <Button type="submit" disabled={code.length !== 6 || confirm.isPending}>
                    {confirm.isPending && <Spinner label="Confirming" className="text-primary-foreground" />}
                    Confirm &amp; Enable MFA
                  </Button>
                </div>
              </form>
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function VerifyCard({ expired }: { expired: boolean }) {
  const verify = useMfaVerify();
  const [code, setCode] = useState('');
  const [useRecovery, setUseRecovery] = useState(false);
  const [recovery, setRecovery] = useState('');
  const codeId = useId();
  const recoveryId = useId();
  const ready = useRecovery ? recovery.trim().length >= 8 : code.length === 6;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready) return;
    verify.mutate(useRecovery ? { recoveryCode: recovery.trim() } : { totpCode: code }, {
      onSuccess: () => toast({ title: 'MFA Verified', description: 'Admin access is active for 30 minutes.' }),
      onError: (error) => {
        setCode('');
        failureToast(error);
      },
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{expired ? 'Session Expired' : 'Verify MFA'}</CardTitle>
        <CardDescription>
          {expired ? 'Your 30 minutes of admin access are over. Enter a new code to continue.' : 'Enter the code from your authenticator app to unlock the admin tools for 30 minutes.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="space-y-3">
          {useRecovery ? (
            <div className="space-y-2">
              <Label htmlFor={recoveryId}>Recovery code</Label>
              <input
                id={recoveryId}
                value={recovery}
                onChange={(e) => setRecovery(e.target.value.slice(0, 20))}
                autoComplete="off"
                className="h-10 w-56 rounded-md border border-input bg-background px-3 font-mono shadow-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              />
            </div>
          ) : (
            <div className="space-y-2">
              <Label htmlFor={codeId}>6-digit code</Label>
              <SixDigitInput id={codeId} value={code} onChange={setCode} autoFocus />
            </div>
          )}
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={!ready || verify.isPending}>
              {verify.isPending && <Spinner label="Verifying" className="text-primary-foreground" />}
              Verify MFA
            </Button>
            <Button type="button" variant="link" onClick={() => setUseRecovery((v) => !v)}>
              {useRecovery ? 'Use a code from the app' : 'Use a recovery code'}
            </Button>
          </div>
        </form>
        <AdminMfaPasskeyButton />
      </CardContent>
    </Card>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { copied, copy } = useCopy();
  const text = `Sixdigit admin recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  const href = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  return (
    <Card role="region" aria-label="Recovery codes" className="border-warning/50">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <CheckCircle2 className="size-4 text-success" aria-hidden="true" />
          MFA is on — save your recovery codes
        </CardTitle>
        <CardDescription>Shown once. Each code unlocks the admin tools once if you lose your device. Store them somewhere safe.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <ul className="grid grid-cols-2 gap-2 font-mono text-sm sm:grid-cols-5" data-testid="recovery-codes">
          {codes.map((c) => (
            <li key={c} className="rounded bg-muted px-2 py-1 text-center">
              {c}
            </li>
          ))}
        </ul>
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" onClick={() => void copy('codes', codes.join('\n'), { title: 'Copied!' })}>
            <Copy aria-hidden="true" />
            {copied === 'codes' ? 'Copied' : 'Copy codes'}
          </Button>
          <Button asChild variant="outline">
            <a href={href} download="sixdigit-admin-recovery-codes.txt">
              <Download aria-hidden="true" />
              Download
            </a>
          </Button>
          <Button type="button" onClick={onDone}>
            I saved them
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function ToolLinks() {
  return (
    <section aria-labelledby="tools-heading" className="space-y-3">
      <h2 id="tools-heading" className="flex items-center gap-2 text-xl font-semibold">
        <ShieldCheck className="size-5 text-success" aria-hidden="true" />
        Admin tools
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {ADMIN_TOOLS.map(({ to, label, description, icon: Icon }) => (
          <li key={to}>
            <Link to={to} className="flex h-full items-start gap-3 rounded-lg border bg-card p-4 shadow-sm transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
              <Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
              <span>
                <span className="block font-medium">{label}</span>
                <span className="block text-sm text-muted-foreground">{description}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
