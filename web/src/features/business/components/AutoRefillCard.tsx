import { useId } from 'react';
import { CreditCard, Landmark, RefreshCcw, TriangleAlert } from 'lucide-react';
import { formatRupees, getTopUpPack, verificationsForPaise } from '@common/pricing';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { UtrForm } from '@/features/payments/components/BankQrPanel';
import type { AutoRefillMode, AutoRefillSettings } from '../api';

/** One sentence per mode: what this installation's auto-refill really does. */
export function autoRefillModeText(mode: AutoRefillMode, method?: 'card' | 'upi'): string {
  if (mode === 'razorpay') {
    const what = method === 'upi' ? 'UPI mandate' : method === 'card' ? 'card' : 'card or UPI mandate';
    return `When a verification takes your balance below the threshold, we charge your saved ${what} once for the chosen pack through Razorpay. Credits are added when Razorpay confirms the payment.`;
  }
  if (mode === 'bank') {
    return 'When a verification takes your balance below the threshold, we issue a bank/UPI top-up request for the chosen pack — a fresh reference and UPI QR, here and by e-mail — for you to pay. Nothing is charged automatically; one request is open at a time.';
  }
  return 'Auto-refill is not available on this server: neither card/UPI payments (Razorpay) nor bank/UPI top-ups are set up.';
}

const rupees = (text: string) => formatRupees(Math.round(Number(text) * 100));

/**
 * The dashboard's auto-refill card: which of the two auto-refills this server runs, whether it
 * is on, why the server switched it off, and an open bank/UPI request to pay (QR + UTR form).
 */
export function AutoRefillCard({ settings, onEdit }: { settings: AutoRefillSettings; onEdit: () => void }) {
  const pack = settings.packId ? getTopUpPack(settings.packId) : undefined;
  const run = settings.lastRefill;
  const Icon = settings.mode === 'razorpay' ? CreditCard : Landmark;
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} className="flex items-center gap-2 text-base">
          <RefreshCcw className="size-4" aria-hidden="true" />
          Auto-refill
        </CardTitle>
        <CardDescription>{settings.mode === 'razorpay' ? 'Charges your saved card or UPI mandate' : settings.mode === 'bank' ? 'Sends you a bank/UPI top-up request' : 'Not available on this server'}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        <p className="flex items-start gap-2 text-muted-foreground">
          <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>{autoRefillModeText(settings.mode, settings.mandate?.method)}</span>
        </p>
        {settings.offReason && (
          <p role="alert" className="flex items-start gap-2 rounded-md bg-destructive/10 p-3 text-destructive">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              <strong>Auto-refill was switched off.</strong> {settings.offReason}
            </span>
          </p>
        )}
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
          <dt className="text-muted-foreground">Status</dt>
          <dd>{settings.enabled ? 'On' : 'Off'}</dd>
          {settings.enabled && settings.thresholdPaise !== null && (
            <>
              <dt className="text-muted-foreground">Below</dt>
              <dd>{formatRupees(settings.thresholdPaise)}</dd>
            </>
          )}
          {pack && (
            <>
              <dt className="text-muted-foreground">Pack</dt>
              <dd>
                {pack.name} — {formatRupees(pack.amountPaise)}
              </dd>
            </>
          )}
          {settings.mandate && (
            <>
              <dt className="text-muted-foreground">Saved</dt>
              <dd>
                {settings.mandate.label ?? (settings.mandate.method === 'card' ? 'Card' : 'UPI mandate')}
                {settings.mandate.status !== 'active' && ` (${settings.mandate.status === 'pending' ? 'waiting for your bank to confirm' : 'revoked'})`}
              </dd>
            </>
          )}
          {run && run.status !== 'open' && (
            <>
              <dt className="text-muted-foreground">Last refill</dt>
              <dd>
                {rupees(run.amount)} · {REFILL_STATUS[run.status] ?? run.status} · {new Date(run.createdAt).toLocaleDateString('en-IN')}
              </dd>
            </>
          )}
        </dl>
        {run?.status === 'open' && run.request && (
          <section aria-label="Top-up request to pay" className="space-y-3 rounded-lg border p-3">
            <p className="font-medium">
              Pay {rupees(run.request.amount)} quoting <code className="font-mono">{run.request.paymentReference}</code>
            </p>
            <div className="flex flex-wrap items-start gap-4">
              <img src={run.request.qrCodeImageUrl} alt={`UPI QR code: pay ${rupees(run.request.amount)} to ${run.request.merchantName}`} className="size-36 rounded border bg-white p-1" />
              <dl className="grid gap-1 text-xs">
                <dt className="text-muted-foreground">UPI id</dt>
                <dd className="font-mono">{run.request.upiId}</dd>
                <dt className="text-muted-foreground">Valid until</dt>
                <dd>{new Date(run.request.expiresAt).toLocaleDateString('en-IN')}</dd>
              </dl>
            </div>
            <UtrForm option={{ paymentReference: run.request.paymentReference, amount: run.request.amount, verifications: verificationsForPaise(Math.round(Number(run.request.amount) * 100)) }} />
          </section>
        )}
        {(run?.status === 'due' || run?.status === 'charging') && (
          <p role="status" className="text-muted-foreground">
            A refill of {rupees(run.amount)} is in progress.
          </p>
        )}
        <Button type="button" variant="outline" size="sm" onClick={onEdit} disabled={settings.mode === 'unavailable'}>
          Auto-refill settings
        </Button>
      </CardContent>
    </Card>
  );
}

const REFILL_STATUS: Record<string, string> = {
  credited: 'credited',
  failed: 'failed',
  expired: 'not paid in time',
};
