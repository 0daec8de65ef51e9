import type { LucideIcon } from 'lucide-react';
import {
  ChartColumnIcon,
  KeyRoundIcon,
  LandmarkIcon,
  SmartphoneIcon,
  WalletIcon,
  WebhookIcon,
} from 'lucide-react';
import { MIN_PAYMENT_PAISE, PAISE_PER_VERIFICATION, autoRefillFeatureText, formatRupees } from '@common/pricing';
import { usePaymentMethods } from '@/features/payment-methods/api';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { SECTION_IDS } from '../content';
import { Section } from './Section';

interface Feature {
  icon: LucideIcon;
  title: string;
  body: string;
  /** the auto-refill card: its body says which auto-refill this installation runs */
  autoRefill?: boolean;
}

export const FEATURES: readonly Feature[] = [
  {
    icon: KeyRoundIcon,
    title: 'RFC 6238 TOTP API',
    body:
      'Enrol a user and get a QR code plus ten backup codes, then check six-digit codes with one call. Replay protection, brute-force throttling and idempotent retries are built in.',
  },
  {
    icon: SmartphoneIcon,
    title: 'Installable authenticator',
    body:
      'Users without an authenticator can install ours as a web app. Codes are computed on the device, so it keeps working on a flight or in a basement with no signal.',
  },
  {
    icon: ChartColumnIcon,
    title: 'Analytics dashboard',
    body:
      'Daily usage, success rates and response times for every API key, recent verifications at a glance, and an audit log of key changes and payments.',
  },
  {
    icon: WalletIcon,
    title: 'Prepaid credits with auto-refill',
    body: `1 credit = ${formatRupees(PAISE_PER_VERIFICATION)} = one verification. ${autoRefillFeatureText(null)}`,
    autoRefill: true,
  },
  {
    icon: WebhookIcon,
    title: 'Signed webhooks',
    body:
      'Hear about every success, failure, low balance and empty balance. Payloads are signed with HMAC-SHA256 to the Standard Webhooks spec and retried after 1 s, 5 s and 30 s.',
  },
  {
    icon: LandmarkIcon,
    title: 'Bank, UPI and card top-ups',
    body: `Top up from ${formatRupees(MIN_PAYMENT_PAISE)} by bank transfer or UPI QR at no extra charge, reviewed within 2–4 business hours. Instant card and UPI checkout where enabled.`,
  },
];

export function Features() {
  // The server-rendered page says what is true of both auto-refills; the browser then asks which one runs here.
  const mode = usePaymentMethods().data?.autoRefill.mode ?? null;
  return (
    <Section
      id={SECTION_IDS.features}
      eyebrow="Features"
      title="Everything you need to retire SMS one-time codes"
      description="A verification API, an authenticator your users can install, and the dashboard, billing and webhooks to run it in production."
    >
      <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map(({ icon: Icon, title, body, autoRefill }) => (
          <li key={title} className="flex">
            <Card className="flex w-full flex-col transition-shadow hover:shadow-md">
              <CardHeader className="flex-row items-center gap-3 pb-3 sm:flex-col sm:items-start">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <CardTitle className="text-base">{title}</CardTitle>
              </CardHeader>
              <CardContent>
                <CardDescription className="leading-relaxed">
                  {autoRefill ? `1 credit = ${formatRupees(PAISE_PER_VERIFICATION)} = one verification. ${autoRefillFeatureText(mode)}` : body}
                </CardDescription>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </Section>
  );
}
