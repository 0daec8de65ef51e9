import { KeyRound, QrCode, ShieldCheck, Smartphone } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';

const STEPS = [
  { icon: QrCode, text: 'Scan a QR code with your authenticator app (or type the secret)' },
  { icon: Smartphone, text: 'Confirm with the first code your phone shows: only then does it protect your sign-in' },
  { icon: KeyRound, text: 'Save 10 one-time backup codes (download, copy or print), shown once' },
];

/** Not configured yet: what setting up does, and the Setup TOTP button. */
export function SetupIntro({ onSetup, pending }: { onSetup: () => void; pending: boolean }) {
  return (
    <Card>
      <CardHeader className="gap-3">
        <span className="flex size-11 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <ShieldCheck className="size-5" aria-hidden="true" />
        </span>
        <CardTitle className="text-xl">TOTP is not set up yet</CardTitle>
        <CardDescription className="text-base">
          Protect your sign-in with a second step: after Google (or your usual sign-in), Sixdigit asks for the code from your authenticator app.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <ol className="space-y-2 text-sm">
          {STEPS.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-center gap-2">
              <Icon className="size-4 shrink-0 text-primary" aria-hidden="true" />
              {text}
            </li>
          ))}
        </ol>
        <Button type="button" size="lg" onClick={onSetup} disabled={pending}>
          {pending ? <Spinner label="Setting up" className="text-primary-foreground" /> : <ShieldCheck aria-hidden="true" />}
          {pending ? 'Setting up…' : 'Setup TOTP'}
        </Button>
      </CardContent>
    </Card>
  );
}
