import { BellRing, Plus, TriangleAlert, Wallet } from 'lucide-react';
import {
  LOW_BALANCE_THRESHOLD_PAISE,
  PAISE_PER_VERIFICATION,
  formatRupees,
  getTopUpPack,
  type TopUpPackId,
} from '@common/pricing';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import type { BusinessProfile } from '../api';
import { balanceRupees, count } from '../format';

/** Under ₹100 (SPEC §5, §9). */
export function isLowBalance(balancePaise: number): boolean {
  return balancePaise < LOW_BALANCE_THRESHOLD_PAISE;
}

/** Auto-refill is on and the balance has fallen below its threshold. */
export function belowRefillThreshold(profile: BusinessProfile): boolean {
  const { enabled, thresholdPaise } = profile.autoRefill;
  return enabled && thresholdPaise !== null && profile.balancePaise < thresholdPaise;
}

export function BalanceCard({ profile, onAddCredits }: { profile: BusinessProfile; onAddCredits: () => void }) {
  return (
    <Card className="flex flex-col">
      <CardHeader className="pb-3">
        <CardTitle className="flex items-center gap-2 text-base font-medium text-muted-foreground">
          <Wallet className="size-4" aria-hidden="true" />
          Credit balance
        </CardTitle>
      </CardHeader>
      <CardContent className="flex-1 space-y-1">
        <p className="text-4xl font-semibold tracking-tight tabular-nums" data-testid="balance">
          {balanceRupees(profile.balancePaise)}
        </p>
        <p className="text-sm">
          <span className="font-medium tabular-nums" data-testid="verifications-left">
            {count(profile.verificationsLeft)}
          </span>{' '}
          verifications left
        </p>
        <CardDescription>1 credit = {formatRupees(PAISE_PER_VERIFICATION)} = one verification</CardDescription>
      </CardContent>
      <CardFooter>
        <Button type="button" onClick={onAddCredits} className="w-full sm:w-auto">
          <Plus aria-hidden="true" />
          Add Credits
        </Button>
      </CardFooter>
    </Card>
  );
}

/**
 * The low-balance alert (under ₹100), or — when auto-refill is on and the balance is under its
 * threshold — the reminder to buy the chosen pack. Nothing otherwise.
 */
export function BalanceAlert({
  profile,
  onAddCredits,
}: {
  profile: BusinessProfile;
  onAddCredits: (packId?: TopUpPackId) => void;
}) {
  const refillPack = profile.autoRefill.packId ? getTopUpPack(profile.autoRefill.packId) : undefined;
  const suggestion = profile.autoRefill.enabled && refillPack
    ? ` Your auto-refill choice is the ${refillPack.name} pack (${formatRupees(refillPack.amountPaise)} for ${count(refillPack.verifications)} verifications).`
    : '';

  if (isLowBalance(profile.balancePaise)) {
    const empty = profile.balancePaise < PAISE_PER_VERIFICATION;
    return (
      <div role="alert" className="flex flex-col gap-3 rounded-xl border border-destructive/50 bg-destructive/10 p-4 sm:flex-row sm:items-center">
        <TriangleAlert className="size-5 shrink-0 text-destructive" aria-hidden="true" />
        <div className="flex-1 text-sm">
          <p className="font-semibold">{empty ? 'Out of credits' : 'Low balance'}</p>
          <p className="text-foreground/80">
            {empty
              ? 'Your balance cannot pay for another verification: verify calls answer 402 insufficient_credits until you add credits.'
              : `Your balance is ${balanceRupees(profile.balancePaise)} — under ${formatRupees(LOW_BALANCE_THRESHOLD_PAISE)}, enough for ${count(profile.verificationsLeft)} more verifications. Top up before verifications stop.`}
            {suggestion}
          </p>
        </div>
        <Button type="button" variant="destructive" size="sm" onClick={() => onAddCredits(refillPack?.id)}>
          Add Credits
        </Button>
      </div>
    );
  }

  if (belowRefillThreshold(profile) && profile.autoRefill.thresholdPaise !== null) {
    return (
      <div role="status" className="flex flex-col gap-3 rounded-xl border border-warning/60 bg-warning/10 p-4 sm:flex-row sm:items-center">
        <BellRing className="size-5 shrink-0 text-warning" aria-hidden="true" />
        <div className="flex-1 text-sm">
          <p className="font-semibold">Time to top up</p>
          <p className="text-foreground/80">
            Your balance ({balanceRupees(profile.balancePaise)}) is below your auto-refill threshold of{' '}
            {formatRupees(profile.autoRefill.thresholdPaise)}.{suggestion}
          </p>
        </div>
        <Button type="button" variant="outline" size="sm" onClick={() => onAddCredits(refillPack?.id)}>
          Add Credits
        </Button>
      </div>
    );
  }

  return null;
}
