import { LifeBuoy, Lock, Timer } from 'lucide-react';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

const FEATURES = [
  {
    icon: Timer,
    title: 'Time-based codes',
    text: 'A new 6-digit code every 30 seconds (RFC 6238), so a code that leaks is soon useless.',
  },
  {
    icon: Lock,
    title: 'Secure by design',
    text: 'Your secret is encrypted at rest on our servers and shown to you only once, when you set it up.',
  },
  {
    icon: LifeBuoy,
    title: 'Backup codes',
    text: 'Ten one-time backup codes get you in if you lose your phone. Make a fresh set any time with a code from your app.',
  },
];

/** The three feature cards under the code (SPEC §2). */
export function FeatureCards() {
  return (
    <ul className="grid grid-cols-1 gap-4 md:grid-cols-3" aria-label="About account TOTP">
      {FEATURES.map(({ icon: Icon, title, text }) => (
        <li key={title}>
          <Card className="h-full">
            <CardHeader className="gap-2">
              <span className="flex size-9 items-center justify-center rounded-lg bg-primary/10 text-primary">
                <Icon className="size-4" aria-hidden="true" />
              </span>
              <CardTitle className="text-base">{title}</CardTitle>
              <CardDescription>{text}</CardDescription>
            </CardHeader>
          </Card>
        </li>
      ))}
    </ul>
  );
}
