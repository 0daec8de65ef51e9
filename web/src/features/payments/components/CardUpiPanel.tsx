import { useState } from 'react';
import { CreditCard, Loader2 } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { formatRupees, getTopUpPack, paiseToDecimalString, type TopUpPackId } from '@common/pricing';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { createOrder, refreshBusiness, verifyPayment, type PaymentConfig } from '../api';
import { loadRazorpay } from '../razorpay';
import { PackPicker } from './PackPicker';

/** SPEC §8 payment messages. */
export const PAYMENT_TOASTS = {
  orderFailed: { title: 'Order Creation Failed', description: 'Failed to create payment order. Please try again.' },
  verifyFailed: { title: 'Payment Verification Failed', description: 'Payment verification failed. Please contact support.' },
  paymentFailed: { title: 'Payment Failed', description: 'Failed to initiate payment. Please try again.' },
} as const;

/** A client error (4xx) says something the payer can act on; anything else gets the spec's words. */
function described(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 ? errorMessage(error, fallback) : fallback;
}

export function CardUpiPanel({
  config,
  packId,
  onPackChange,
  payerEmail,
}: {
  config: PaymentConfig | undefined;
  packId: TopUpPackId;
  onPackChange: (id: TopUpPackId) => void;
  payerEmail?: string;
}) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const pack = getTopUpPack(packId)!;

  if (!config?.razorpay) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed p-8 text-center">
        <CreditCard className="size-8 text-muted-foreground" aria-hidden="true" />
        <Badge variant="secondary">Coming Soon</Badge>
        <p className="max-w-sm text-sm text-muted-foreground">
          Card and UPI checkout is coming soon. Meanwhile pay by bank transfer or UPI QR from the Bank QR tab.
        </p>
      </div>
    );
  }

  async function pay() {
    setBusy(true);
    let order;
    try {
      order = await createOrder(paiseToDecimalString(pack.amountPaise));
    } catch (error) {
      toast({ variant: 'destructive', title: PAYMENT_TOASTS.orderFailed.title, description: described(error, PAYMENT_TOASTS.orderFailed.description) });
      setBusy(false);
      return;
    }
    try {
      const Razorpay = await loadRazorpay();
      const checkout = new Razorpay({
        key: order.keyId,
        amount: order.amount,
        currency: order.currency,
        name: 'Sixdigit',
        description: order.description,
        order_id: order.id,
        ...(payerEmail ? { prefill: { email: payerEmail } } : {}),
        modal: { ondismiss: () => setBusy(false) },
        handler: (result) => {
          verifyPayment(result)
            .then((verified) => {
              toast({ title: 'Payment Successful', description: `${formatRupees(order.amount)} added to your balance (₹${verified.balance} now).` });
              refreshBusiness(client);
            })
            .catch(() => {
              toast({ variant: 'destructive', ...PAYMENT_TOASTS.verifyFailed });
            })
            .finally(() => setBusy(false));
        },
      });
      checkout.on('payment.failed', () => {
        toast({ variant: 'destructive', ...PAYMENT_TOASTS.paymentFailed });
        setBusy(false);
      });
      checkout.open();
    } catch {
      toast({ variant: 'destructive', ...PAYMENT_TOASTS.paymentFailed });
      setBusy(false);
    }
  }

  return (
    <div className="space-y-5">
      <PackPicker name="card-pack" value={packId} onChange={onPackChange} />
      <p className="text-sm text-muted-foreground">
        Pay by card, UPI, net banking or wallet through Razorpay. Credits are added as soon as the payment is confirmed.
      </p>
      <Button type="button" onClick={() => void pay()} disabled={busy} className="w-full sm:w-auto">
        {busy ? <Loader2 aria-hidden="true" className="animate-spin" /> : <CreditCard aria-hidden="true" />}
        Pay {formatRupees(pack.amountPaise)}
      </Button>
    </div>
  );
}
