import { useEffect, useState, type ReactNode } from 'react';
import { ArrowLeft, KeyRound, ShieldAlert, ShieldX } from 'lucide-react';
import { Link, Navigate, useNavigate } from 'react-router';
import { GateCard } from '@/components/GateCard';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { useCurrentUser } from '@/features/auth/api';
import { isMfaRequired, useMfaStatus } from '../api';


export function MfaVerificationRequired() {
  return (
    <GateCard icon={KeyRound} title="MFA Verification Required" alert>
      <p className="text-sm">Enter a code from your authenticator app to use the admin tools. A verification is valid for 30 minutes.</p>
      <Button asChild>
        <Link to="/admin">Verify MFA</Link>
      </Button>
    </GateCard>
  );
}

function AccessDeniedRedirect() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate('/', { replace: true }), 1500);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <GateCard icon={ShieldX} title="Access denied - redirecting..." alert>
      <p className="text-sm">Only the system administrator can open the admin tools.</p>
    </GateCard>
  );
}

/**
 * SPEC "Admin gate" for /admin/dashboard, /admin/payments and the other tools: the page renders
 * only for the administrator with MFA verified in this session (the server checks it again on
 * every call and answers 403 mfa_required when it has lapsed).
 */
export function AdminGate({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  const status = useMfaStatus(Boolean(user?.isAdmin) && !user?.impersonation);
  if (isLoading || (user?.isAdmin && !user.impersonation && status.isPending)) return <PageSpinner label="Verifying admin access..." />;
  if (!user) return <Navigate to="/" replace />;
  if (!user.isAdmin || user.impersonation || !status.data) return <AccessDeniedRedirect />;
  if (!status.data.mfaConfigured) {
    return (
      <GateCard icon={ShieldAlert} title="MFA Setup Required" alert>
        <p className="text-sm">Authenticator-app MFA is mandatory for every admin operation.</p>
        <Button asChild>
          <Link to="/admin">Complete MFA Setup</Link>
        </Button>
      </GateCard>
    );
  }
  if (!status.data.mfaVerified) return <MfaVerificationRequired />;
  return <>{children}</>;
}

/** Header of an admin tool page: title, what it is for, and the way back to the admin home. */
export function AdminPage({ title, description, children, actions }: { title: string; description: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <header className="space-y-1">
          <Link to="/admin" className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline">
            <ArrowLeft className="size-4" aria-hidden="true" />
            Back to Setup
          </Link>
          <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
          <p className="text-sm text-muted-foreground">{description}</p>
        </header>
        {actions}
      </div>
      {children}
    </div>
  );
}

/** A failed admin call: the MFA lapsed (verify again) or something else (retry). */
export function AdminLoadError({ error, what, onRetry }: { error: unknown; what: string; onRetry: () => void }) {
  if (isMfaRequired(error)) return <MfaVerificationRequired />;
  return (
    <Card role="alert">
      <CardContent className="flex flex-wrap items-center justify-between gap-3 py-6 text-sm">
        <span>Could not load {what}.</span>
        <Button type="button" variant="outline" size="sm" onClick={onRetry}>
          Try again
        </Button>
      </CardContent>
    </Card>
  );
}

/** Six digits only, as SPEC §5 asks for TOTP inputs. */
export function SixDigitInput({ id, value, onChange, autoFocus }: { id: string; value: string; onChange: (v: string) => void; autoFocus?: boolean }) {
  return (
    <input
      id={id}
      inputMode="numeric"
      autoComplete="one-time-code"
      autoFocus={autoFocus}
      maxLength={6}
      value={value}
      onChange={(e) => onChange(e.target.value.replace(/\D/g, '').slice(0, 6))}
      className="h-12 w-44 rounded-md border border-input bg-background px-3 text-center font-mono text-2xl tracking-[0.4em] shadow-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    />
  );
}

/** Time left on this session's MFA, ticking each second. */
export function useCountdown(until: string | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!until) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  return until ? Math.max(0, Date.parse(until) - now) : null;
}

