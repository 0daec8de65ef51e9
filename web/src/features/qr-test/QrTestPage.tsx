import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { CircleCheck, CircleX, Eye, EyeOff, QrCode, ScanLine, ShieldCheck, Smartphone, Timer } from 'lucide-react';
import QRCode from 'qrcode';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { Progress } from '@/components/ui/progress';
import { toast } from '@/components/ui/use-toast';
import { useCurrentUser } from '@/features/auth/api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import {
  DIGITS,
  MOCK_ACCOUNTS,
  PERIOD_SECONDS,
  codeAt,
  groupSecret,
  otpauthUri,
  sanitizeCode,
  secondsRemaining,
  type MockAccount,
} from './mock-accounts';

/** The current time, updated every second. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** A QR image drawn in the browser from the otpauth URI — nothing leaves the page. */
function useQrDataUrl(uri: string): { src: string | null; failed: boolean } {
  const [state, setState] = useState<{ uri: string; src: string | null; failed: boolean }>({ uri, src: null, failed: false });
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(uri, { width: 320, margin: 1, errorCorrectionLevel: 'M' })
      .then((src) => live && setState({ uri, src, failed: false }))
      .catch(() => live && setState({ uri, src: null, failed: true }));
    return () => {
      live = false;
    };
  }, [uri]);
  return state.uri === uri ? state : { src: null, failed: false };
}

/**
 * /testQR ("QR Code Testing"), also embedded in /business: sample accounts to scan with an
 * authenticator, their current codes computed here, and a box to check a typed code.
 */
export function QrTestPage({ embedded = false }: { embedded?: boolean }) {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <PageSpinner label="Loading QR test page" />;
  if (!user) return null;
  return embedded ? <QrTestContent headingLevel={2} /> : <StandaloneQrTestPage />;
}

function StandaloneQrTestPage() {
  useDocumentTitle('QR Code Testing · Sixdigit');
  return (
    <div className="mx-auto w-full max-w-6xl space-y-8 px-4 py-8 sm:px-6 sm:py-10">
      <header className="space-y-2">
        <h1 className="flex items-center gap-2 text-3xl font-bold tracking-tight">
          <QrCode className="size-7 text-primary" aria-hidden="true" />
          QR Code Testing
        </h1>
        <p className="max-w-2xl text-muted-foreground">
          Scan these sample accounts with an authenticator app and check that its codes match the ones computed here.
        </p>
      </header>
      <QrTestContent headingLevel={2} />
    </div>
  );
}

function QrTestContent({ headingLevel }: { headingLevel: 2 | 3 }) {
  const now = useNow();
  const remaining = secondsRemaining(now);
  const step = Math.floor(now / 1000 / PERIOD_SECONDS);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 rounded-xl border bg-card p-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-0.5">
          <Heading className="text-lg font-semibold tracking-tight">Test accounts</Heading>
          <p className="text-sm text-muted-foreground">
            Codes are computed in your browser (RFC 6238: SHA-1, {DIGITS} digits, {PERIOD_SECONDS} s).
          </p>
        </div>
        <div className="w-full space-y-1.5 sm:w-56">
          <p className="flex items-center gap-1.5 text-sm font-medium tabular-nums" aria-live="off">
            <Timer className="size-4 text-muted-foreground" aria-hidden="true" />
            Codes refresh in {remaining}s
          </p>
          <Progress
            value={(remaining / PERIOD_SECONDS) * 100}
            aria-label="Time left for the current codes"
            indicatorClassName={remaining <= 5 ? 'bg-destructive' : undefined}
          />
        </div>
      </div>

      <ul className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
        {MOCK_ACCOUNTS.map((account) => (
          <li key={account.id}>
            <AccountCard account={account} step={step} />
          </li>
        ))}
      </ul>

      <HowToCard Heading={Heading} />
    </div>
  );
}

function AccountCard({ account, step }: { account: MockAccount; step: number }) {
  const secretId = useId();
  const inputId = useId();
  const feedbackId = useId();
  const [showSecret, setShowSecret] = useState(false);
  const [entered, setEntered] = useState('');
  const uri = useMemo(() => otpauthUri(account), [account]);
  const qr = useQrDataUrl(uri);
  // One code per 30 s step, computed from the step's first second.
  const code = useMemo(() => codeAt(account, step * PERIOD_SECONDS * 1000), [account, step]);
  const complete = entered.length === DIGITS;
  const matches = complete && entered === code;

  function verify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!complete) return;
    if (matches) {
      toast({ title: 'Code Verified', description: `The code matches ${account.issuer}'s current code.` });
    } else {
      toast({
        variant: 'destructive',
        title: 'Code Incorrect',
        description: `That is not ${account.issuer}'s current code. Check the account and try the code shown now.`,
      });
    }
  }

  return (
    <Card className="flex h-full flex-col" aria-label={`${account.issuer}: ${account.name}`} role="group">
      <CardHeader className="flex-row items-center gap-3 space-y-0 pb-4">
        <span
          className="flex size-10 shrink-0 items-center justify-center rounded-full text-lg font-semibold text-white"
          style={{ backgroundColor: account.color }}
          aria-hidden="true"
        >
          {account.issuer.charAt(0)}
        </span>
        <div className="min-w-0">
          <CardTitle className="truncate text-base">{account.issuer}</CardTitle>
          <CardDescription className="truncate">{account.name}</CardDescription>
        </div>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        <div className="mx-auto flex size-44 items-center justify-center rounded-lg border bg-white p-2" style={{ borderColor: account.color }}>
          {qr.src ? (
            <img src={qr.src} alt={`QR code for ${account.issuer} (${account.name})`} className="size-full" />
          ) : qr.failed ? (
            <p className="p-2 text-center text-xs text-neutral-600">The QR image could not be drawn. Enter the secret by hand instead.</p>
          ) : (
            <Spinner label={`Drawing the QR code for ${account.issuer}`} className="size-6" />
          )}
        </div>

        <div className="space-y-2">
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className="px-2"
            aria-expanded={showSecret}
            aria-controls={secretId}
            onClick={() => setShowSecret((s) => !s)}
          >
            {showSecret ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
            {showSecret ? 'Hide Secret Key' : 'Show Secret Key'}
          </Button>
          <div id={secretId} hidden={!showSecret}>
            {showSecret && (
              <code className="block rounded-md border bg-muted/50 px-3 py-2 font-mono text-sm break-all">
                {groupSecret(account.secret)}
              </code>
            )}
          </div>
        </div>

        <div className="rounded-lg bg-muted/50 p-3 text-center">
          <p className="text-xs font-medium text-muted-foreground">Current code</p>
          <p className="font-mono text-3xl font-semibold tracking-widest tabular-nums" data-testid={`code-${account.id}`}>
            {code.slice(0, 3)} {code.slice(3)}
          </p>
        </div>

        <form onSubmit={verify} className="mt-auto space-y-2" noValidate>
          <Label htmlFor={inputId}>Code from your authenticator</Label>
          <div className="flex gap-2">
            <Input
              id={inputId}
              value={entered}
              onChange={(e) => setEntered(sanitizeCode(e.target.value))}
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={DIGITS}
              placeholder="6 digits"
              className={cn(
                'font-mono tracking-widest',
                complete && (matches ? 'border-success focus-visible:border-success' : 'border-destructive focus-visible:border-destructive'),
              )}
              aria-invalid={complete && !matches ? true : undefined}
              aria-describedby={feedbackId}
            />
            <Button type="submit" disabled={!complete}>
              <ShieldCheck aria-hidden="true" />
              Verify
            </Button>
          </div>
          <p id={feedbackId} aria-live="polite" className="min-h-5 text-sm">
            {complete ? (
              matches ? (
                <span className="flex items-center gap-1.5 font-medium text-success">
                  <CircleCheck className="size-4" aria-hidden="true" />
                  Code matches the current code
                </span>
              ) : (
                <span className="flex items-center gap-1.5 font-medium text-destructive">
                  <CircleX className="size-4" aria-hidden="true" />
                  Code does not match the current code
                </span>
              )
            ) : (
              <span className="text-muted-foreground">
                {entered.length === 0 ? 'Type the 6-digit code your app shows.' : `${DIGITS - entered.length} more digit${DIGITS - entered.length === 1 ? '' : 's'}…`}
              </span>
            )}
          </p>
        </form>
      </CardContent>
    </Card>
  );
}

function HowToCard({ Heading }: { Heading: 'h2' | 'h3' }) {
  const steps = [
    {
      icon: Smartphone,
      title: 'Add an account',
      body: (
        <>
          Open the{' '}
          <Link to="/multi-totp" className="font-medium text-primary underline-offset-4 hover:underline">
            Multi-TOTP page
          </Link>{' '}
          and choose Add Account — or use any authenticator app on your phone.
        </>
      ),
    },
    { icon: ScanLine, title: 'Use the Camera tab', body: 'Pick the Camera tab and allow camera access. Upload and Manual (with the secret key) work too.' },
    { icon: QrCode, title: 'Scan a QR code', body: 'Point the camera at one of the QR codes above. The account name and issuer fill in by themselves.' },
    { icon: CircleCheck, title: 'Compare codes', body: 'The code in the authenticator should equal the one shown here. Type it in the box to check it.' },
  ];
  return (
    <Card>
      <CardHeader>
        <Heading className="text-lg leading-tight font-semibold tracking-tight">How to test</Heading>
        <CardDescription>These are public demo secrets: use them for testing only, never for a real account.</CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {steps.map(({ icon: Icon, title, body }, i) => (
            <li key={title} className="flex gap-3">
              <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary/10 text-sm font-semibold text-primary">
                {i + 1}
              </span>
              <div className="space-y-1">
                <p className="flex items-center gap-1.5 font-medium">
                  <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
                  {title}
                </p>
                <p className="text-sm text-muted-foreground">{body}</p>
              </div>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
