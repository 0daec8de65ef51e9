import { memo, useMemo, useState } from 'react';
import { ArrowDown, ArrowUp, Check, Copy, Eye, EyeOff, Trash2 } from 'lucide-react';
import { accountLabel, generateCode, secondsRemaining } from '@common/otpauth';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/utils';
import type { AuthenticatorAccount } from '../api';
import { groupSecret, initialOf, splitCode } from '../form';

/** The countdown turns red (and says "Expiring") in the last 5 seconds, as on /totp. */
export const EXPIRING_AT_SECONDS = 5;

interface AccountCardProps {
  account: AuthenticatorAccount;
  /** server-corrected time, ms (one ticker for the page) */
  now: number;
  copied: boolean;
  onCopy: (account: AuthenticatorAccount, code: string) => void;
  onDelete: (account: AuthenticatorAccount) => void;
  /** Moves the account one place up (-1) or down (1); absent at that end of the list. */
  onMove?: (account: AuthenticatorAccount, direction: -1 | 1) => void;
  canMoveUp?: boolean;
  canMoveDown?: boolean;
  /** HOTP: the shown code was used; the counter moves on in the vault. */
  onUsed?: (account: AuthenticatorAccount) => void;
}

/** The code for one time step (or HOTP counter), computed once per step rather than every second. */
function useCode(account: AuthenticatorAccount, step: number): string | null {
  return useMemo(() => {
    try {
      if (account.type === 'hotp') return generateCode({ ...account, counter: (account.counter ?? 0) + step });
      return generateCode(account, step * account.period * 1000);
    } catch {
      return null;
    }
  }, [account, step]);
}

/**
 * One account (SPEC §2): issuer initial, name, issuer, show/hide secret, delete, the big code
 * split in two halves (click copies), seconds remaining with a progress bar, and the next code.
 */
export const AccountCard = memo(function AccountCard({ account, now, copied, onCopy, onDelete, onMove, canMoveUp, canMoveDown, onUsed }: AccountCardProps) {
  const [showSecret, setShowSecret] = useState(false);
  const isHotp = account.type === 'hotp';
  const step = isHotp ? 0 : Math.floor(now / (account.period * 1000));
  const code = useCode(account, step);
  const nextCode = useCode(account, isHotp ? 1 : step + 1);
  const remaining = isHotp ? null : secondsRemaining(account.period, now);
  const expiring = remaining !== null && remaining <= EXPIRING_AT_SECONDS;
  const label = accountLabel(account);
  const [first, second] = code ? splitCode(code) : ['', ''];
  const titleId = `account-${account.id}-name`;
  const secretId = `account-${account.id}-secret`;

  return (
    <Card className="flex h-full flex-col gap-4 p-4 sm:p-5" aria-labelledby={titleId} role="article">
      <div className="flex items-start gap-3">
        <div
          aria-hidden="true"
          className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary/10 text-lg font-semibold text-primary"
        >
          {initialOf(account)}
        </div>
        <div className="min-w-0 flex-1">
          <h3 id={titleId} className="truncate font-semibold leading-tight" title={account.accountName}>
            {account.accountName}
          </h3>
          <p className="truncate text-sm text-muted-foreground" title={account.issuer ?? undefined}>
            {account.issuer || 'No issuer'}
          </p>
        </div>
        <div className="-mt-1 -mr-2 flex shrink-0">
          {onMove && (
            <>
              <Button type="button" variant="ghost" size="icon" className="text-muted-foreground" aria-label={`Move ${label} up`} title="Move up" disabled={!canMoveUp} onClick={() => onMove(account, -1)}>
                <ArrowUp aria-hidden="true" />
              </Button>
              <Button type="button" variant="ghost" size="icon" className="text-muted-foreground" aria-label={`Move ${label} down`} title="Move down" disabled={!canMoveDown} onClick={() => onMove(account, 1)}>
                <ArrowDown aria-hidden="true" />
              </Button>
            </>
          )}
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-pressed={showSecret}
            aria-controls={showSecret ? secretId : undefined}
            aria-label={showSecret ? `Hide secret for ${label}` : `Show secret for ${label}`}
            title={showSecret ? 'Hide secret' : 'Show secret'}
            onClick={() => setShowSecret((shown) => !shown)}
          >
            {showSecret ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="text-muted-foreground hover:text-destructive"
            aria-label={`Delete ${label}`}
            title="Delete account"
            onClick={() => onDelete(account)}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </div>

      {showSecret && (
        <div id={secretId} className="rounded-md bg-muted px-3 py-2">
          <p className="text-xs font-medium text-muted-foreground">Secret key</p>
          <p className="font-mono text-sm break-all select-all" data-testid="secret">
            {groupSecret(account.secret)}
          </p>
        </div>
      )}

      {code ? (
        <button
          type="button"
          onClick={() => onCopy(account, code)}
          className="group flex items-center justify-between gap-3 rounded-lg px-2 py-1 -mx-2 text-left transition-colors outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
          aria-label={`Copy code ${first} ${second} for ${label}`}
        >
          <span className="font-mono text-4xl font-semibold tracking-wider tabular-nums sm:text-[2.5rem]" data-testid="code">
            {first}
            <span className="inline-block w-3" aria-hidden="true" />
            {second}
          </span>
          <span className="flex items-center gap-1 text-xs text-muted-foreground group-hover:text-foreground">
            {copied ? <Check className="size-4 text-success" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
            {copied ? 'Copied' : 'Copy'}
          </span>
        </button>
      ) : (
        <p role="alert" className="text-sm text-destructive">
          This account&apos;s secret can&apos;t produce a code. Delete it and add it again.
        </p>
      )}

      {remaining !== null ? (
        <div className="mt-auto space-y-2">
          <Progress
            value={(remaining / account.period) * 100}
            aria-label={`Time left for ${label}`}
            indicatorClassName={cn(expiring && 'bg-destructive')}
            className={cn(expiring && 'bg-destructive/15')}
          />
          <div className="flex items-center justify-between gap-2 text-sm">
            <span className={cn('tabular-nums', expiring ? 'font-medium text-destructive' : 'text-muted-foreground')} data-testid="remaining">
              {remaining} s remaining{expiring ? ' · Expiring' : ''}
            </span>
            {nextCode && (
              <span className="text-muted-foreground">
                Next <span className="font-mono tabular-nums text-foreground/80" data-testid="next-code">{splitCode(nextCode).join(' ')}</span>
              </span>
            )}
          </div>
        </div>
      ) : (
        <div className="mt-auto space-y-1 text-sm">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Badge variant="secondary">HOTP · counter {account.counter ?? 0}</Badge>
            {nextCode && (
              <span className="text-muted-foreground">
                Next <span className="font-mono tabular-nums text-foreground/80" data-testid="next-code">{splitCode(nextCode).join(' ')}</span>
              </span>
            )}
          </div>
          <p className="text-xs text-muted-foreground">
            Counter-based: this code doesn&apos;t expire. Once you have used it, move on to the next one (every device sees the new counter).
          </p>
          {onUsed && (
            <Button type="button" variant="outline" size="sm" onClick={() => onUsed(account)}>
              Used it — next code
            </Button>
          )}
        </div>
      )}
    </Card>
  );
});
