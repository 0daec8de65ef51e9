import { CheckIcon, MinusIcon, XIcon } from 'lucide-react';
import {
  CHANNEL_PRICES,
  COMPARISON_VOLUMES,
  PAISE_PER_VERIFICATION,
  channelSavings,
  formatCountIndian,
  formatRupees,
  monthlyComparison,
  type ChannelId,
} from '@common/pricing';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { SECTION_IDS } from '../content';
import { Section } from './Section';

/** "₹0.20–₹0.25", or a single figure when both ends agree. */
export function rupeeRange(lowPaise: number, highPaise: number): string {
  return lowPaise === highPaise ? formatRupees(lowPaise) : `${formatRupees(lowPaise)}–${formatRupees(highPaise)}`;
}

/** "50–60%", or "60%" when both ends agree. */
export function percentRange(low: number, high: number): string {
  return low === high ? `${low}%` : `${low}–${high}%`;
}

const SAVINGS = channelSavings();

function savingsFor(id: ChannelId) {
  const found = SAVINGS.find((s) => s.channel.id === id);
  if (!found) throw new Error(`No price for channel ${id}`);
  return found;
}

const CHANNEL_DETAIL: Record<ChannelId, string> = {
  sms: 'Plus DLT registration. Codes can arrive late or not at all, and SIM swaps expose them.',
  whatsapp: 'Needs WhatsApp and mobile data on the phone, and an approved message template.',
};

function PriceTiles() {
  const sms = savingsFor('sms');
  const whatsapp = savingsFor('whatsapp');
  return (
    <div className="grid gap-4 md:grid-cols-3">
      {CHANNEL_PRICES.map((channel) => (
        <div key={channel.id} className="rounded-xl border bg-card p-6 text-card-foreground">
          <p className="text-sm font-medium text-muted-foreground">{channel.name}</p>
          <p className="mt-2 text-3xl font-semibold tracking-tight tabular-nums">
            {rupeeRange(channel.lowPaise, channel.highPaise)}
          </p>
          <p className="mt-1 text-sm text-muted-foreground">per message sent</p>
          <p className="mt-3 text-sm text-muted-foreground">{CHANNEL_DETAIL[channel.id]}</p>
        </div>
      ))}
      <div className="rounded-xl border border-primary bg-card p-6 text-card-foreground ring-1 ring-primary">
        <p className="text-sm font-medium text-primary">Sixdigit TOTP</p>
        <p className="mt-2 text-3xl font-semibold tracking-tight tabular-nums">{formatRupees(PAISE_PER_VERIFICATION)}</p>
        <p className="mt-1 text-sm text-muted-foreground">per verification</p>
        <p className="mt-3 text-sm font-medium" data-testid="per-code-savings">
          {percentRange(sms.percentLow, sms.percentHigh)} less than SMS ·{' '}
          {percentRange(whatsapp.percentLow, whatsapp.percentHigh)} less than WhatsApp
        </p>
      </div>
    </div>
  );
}

function CostBar({ lowPaise, highPaise, maxPaise, highlight }: { lowPaise: number; highPaise: number; maxPaise: number; highlight?: boolean }) {
  const low = maxPaise > 0 ? (lowPaise / maxPaise) * 100 : 0;
  const high = maxPaise > 0 ? (highPaise / maxPaise) * 100 : 0;
  return (
    <div aria-hidden="true" className="relative mt-1.5 h-2 overflow-hidden rounded-full bg-muted">
      <div
        className={cn('absolute inset-y-0 left-0 rounded-full', highlight ? 'bg-primary/40' : 'bg-muted-foreground/25')}
        style={{ width: `${high}%` }}
      />
      <div
        className={cn('absolute inset-y-0 left-0 rounded-full', highlight ? 'bg-primary' : 'bg-muted-foreground/55')}
        style={{ width: `${low}%` }}
      />
    </div>
  );
}

function VolumeCard({ verifications }: { verifications: number }) {
  const comparison = monthlyComparison(verifications);
  const maxPaise = Math.max(comparison.sixdigitPaise, ...comparison.channels.map((c) => c.highPaise));
  const sms = comparison.channels.find((c) => c.channel.id === 'sms');
  const titleId = `volume-${verifications}-title`;
  return (
    <Card role="group" aria-labelledby={titleId} data-testid={`volume-${verifications}`} className="flex flex-col">
      <CardHeader className="pb-4">
        <CardTitle id={titleId} className="text-base">
          {formatCountIndian(verifications)} verifications a month
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col">
        <dl className="space-y-4 text-sm">
          {comparison.channels.map((c) => (
            // A <dl> group holds only <dt>/<dd>: the bar is a second <dd> spanning the row.
            <div key={c.channel.id} className="grid grid-cols-[1fr_auto] items-baseline gap-x-3">
              <dt className="text-muted-foreground">{c.channel.name}</dt>
              <dd className="font-medium tabular-nums">{rupeeRange(c.lowPaise, c.highPaise)}</dd>
              <dd className="col-span-2">
                <CostBar lowPaise={c.lowPaise} highPaise={c.highPaise} maxPaise={maxPaise} />
              </dd>
            </div>
          ))}
          <div className="grid grid-cols-[1fr_auto] items-baseline gap-x-3">
            <dt className="font-medium text-foreground">Sixdigit TOTP</dt>
            <dd className="font-semibold text-primary tabular-nums">{formatRupees(comparison.sixdigitPaise)}</dd>
            <dd className="col-span-2">
              <CostBar
                lowPaise={comparison.sixdigitPaise}
                highPaise={comparison.sixdigitPaise}
                maxPaise={maxPaise}
                highlight
              />
            </dd>
          </div>
        </dl>
        {sms && (
          <p className="mt-6 rounded-lg bg-primary/10 px-3 py-2.5 text-sm text-foreground">
            You save{' '}
            <strong className="font-semibold">{rupeeRange(sms.savingLowPaise, sms.savingHighPaise)}</strong> a month
            compared with SMS ({percentRange(sms.percentLow, sms.percentHigh)}).
          </p>
        )}
      </CardContent>
    </Card>
  );
}

type Support = 'yes' | 'no' | 'partly';

const QUALITIES: readonly { label: string; sms: Support; whatsapp: Support; totp: Support }[] = [
  { label: 'Works with no mobile signal or data', sms: 'no', whatsapp: 'no', totp: 'yes' },
  { label: 'Safe from SIM swap and SMS interception', sms: 'no', whatsapp: 'partly', totp: 'yes' },
  { label: 'No delivery delays or undelivered codes', sms: 'no', whatsapp: 'partly', totp: 'yes' },
  { label: 'No DLT or message-template approval', sms: 'no', whatsapp: 'no', totp: 'yes' },
];

function SupportCell({ value }: { value: Support }) {
  const Icon = value === 'yes' ? CheckIcon : value === 'no' ? XIcon : MinusIcon;
  const text = value === 'yes' ? 'Yes' : value === 'no' ? 'No' : 'Partly';
  return (
    <td className="px-2 py-3 text-center sm:px-3">
      <span
        className={cn(
          'inline-flex items-center gap-1.5 text-sm',
          value === 'yes' ? 'font-medium text-foreground' : 'text-muted-foreground',
        )}
      >
        <Icon aria-hidden="true" className={cn('hidden size-4 sm:block', value === 'yes' && 'text-primary')} />
        {text}
      </span>
    </td>
  );
}

export function Comparison() {
  return (
    <Section
      id={SECTION_IDS.compare}
      eyebrow="SMS vs WhatsApp vs TOTP"
      title="Stop paying for every code you send"
      description="Authenticator codes are generated on your user's phone, so there is no message to buy, deliver or wait for. You pay only when your server checks a code."
    >
      <PriceTiles />

      <h3 className="mt-14 text-center text-xl font-semibold tracking-tight">What a month costs</h3>
      <div className="mt-8 grid gap-5 lg:grid-cols-3">
        {COMPARISON_VOLUMES.map((volume) => (
          <VolumeCard key={volume} verifications={volume} />
        ))}
      </div>

      <div className="mt-14 overflow-hidden rounded-xl border bg-card">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">What each channel does beyond price</caption>
          <thead className="border-b bg-muted/50">
            <tr>
              <th scope="col" className="px-3 py-3 font-medium sm:px-4">
                <span className="sr-only">Quality</span>
              </th>
              <th scope="col" className="w-[22%] px-2 py-3 text-center font-medium sm:px-3">
                SMS OTP
              </th>
              <th scope="col" className="w-[22%] px-2 py-3 text-center font-medium sm:px-3">
                WhatsApp OTP
              </th>
              <th scope="col" className="w-[22%] px-2 py-3 text-center font-medium sm:px-3 text-primary">
                Sixdigit TOTP
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {QUALITIES.map((row) => (
              <tr key={row.label}>
                <th scope="row" className="px-3 py-3 font-normal text-foreground sm:px-4">
                  {row.label}
                </th>
                <SupportCell value={row.sms} />
                <SupportCell value={row.whatsapp} />
                <SupportCell value={row.totp} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <p className="mx-auto mt-8 max-w-3xl text-center text-xs leading-relaxed text-muted-foreground">
        SMS and WhatsApp figures are typical Indian list prices per one-time-code message before GST —{' '}
        {CHANNEL_PRICES.map((c) => c.note).join('; ')}. Your negotiated rates may differ. Savings are computed from these
        figures and rounded down. TOTP needs an authenticator app on the user&apos;s phone; Sixdigit&apos;s own is free.
      </p>
    </Section>
  );
}
