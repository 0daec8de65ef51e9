import type { ReactNode } from 'react';
import { ArrowRight, Clock, CreditCard, Landmark, ListChecks, RotateCw, ShieldCheck, TriangleAlert, Wallet } from 'lucide-react';
import { Link } from 'react-router';
import { PAISE_PER_RUPEE, PAISE_PER_VERIFICATION, formatCountIndian, formatRupees, parseRupeesToPaise } from '@common/pricing';
import { PAYMENT_METHODS_HEAD } from '@common/site-heads';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { BlogShell as PublicShell } from '@/features/blog/components/BlogShell';
import { useDocumentTitle } from '@/lib/use-document-title';
import { usePaymentMethods, type PaymentMethods } from './api';

/** The top-up page (signed-in; signed-out visitors are sent to sign in first and come back). */
export const ADD_CREDITS_HREF = '/business/add-credits';

const rupees = (decimal: string) => formatRupees(parseRupeesToPaise(decimal) ?? 0);

/** /payment-methods: how to buy credits here, from the server's own payment configuration. */
export function PaymentMethodsPage() {
  useDocumentTitle(PAYMENT_METHODS_HEAD.title, PAYMENT_METHODS_HEAD.description);
  const methods = usePaymentMethods();

  return (
    <PublicShell>
      <div className="mx-auto w-full max-w-6xl space-y-8 px-4 py-10 sm:px-6 lg:px-8">
        <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div className="max-w-2xl space-y-2">
            <p className="text-sm font-medium text-primary">Buying credits</p>
            <h1 className="text-3xl font-bold tracking-tight">Payment methods</h1>
            <p className="text-muted-foreground">
              Sixdigit is prepaid: you buy credits, and each verification check uses one. Pay by bank transfer or UPI, or by card/UPI checkout where
              it is enabled.
            </p>
          </div>
          <Button asChild size="lg" className="self-start sm:self-auto">
            <Link to={ADD_CREDITS_HREF}>
              Add Credits
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </header>

        {methods.isPending ? (
          <div className="grid gap-6 md:grid-cols-2" aria-busy="true" aria-label="Loading payment methods">
            <Skeleton className="h-64" />
            <Skeleton className="h-64" />
            <Skeleton className="h-48 md:col-span-2" />
          </div>
        ) : methods.isError ? (
          <Card role="alert">
            <CardHeader>
              <CardTitle className="flex items-center gap-2 text-base">
                <TriangleAlert className="size-4 text-destructive" aria-hidden="true" />
                Couldn't load the payment methods
              </CardTitle>
              <CardDescription>Check your connection and try again.</CardDescription>
            </CardHeader>
            <CardContent>
              <Button type="button" onClick={() => void methods.refetch()} disabled={methods.isFetching}>
                <RotateCw aria-hidden="true" className={methods.isFetching ? 'animate-spin' : undefined} />
                Try again
              </Button>
            </CardContent>
          </Card>
        ) : (
          <Methods methods={methods.data} />
        )}
      </div>
    </PublicShell>
  );
}

function Methods({ methods }: { methods: PaymentMethods }) {
  const { bankTransfer, card, review } = methods;
  const reviewWindow = `${review.minHours}–${review.maxHours} hours, ${review.days}, ${review.hours} ${review.timeZone}`;
  return (
    <>
      <dl className="grid gap-4 sm:grid-cols-3">
        <Fact icon={Wallet} term="Price">
          {rupees(methods.pricePerVerification)} per verification (1 credit)
        </Fact>
        <Fact icon={ListChecks} term="Minimum amount">
          {rupees(methods.minimumAmount)}; bank and UPI payments are made for one of the packs below
        </Fact>
        <Fact icon={Clock} term="Bank/UPI approval">
          Usually within {reviewWindow}
        </Fact>
      </dl>

      <div className="grid items-start gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="flex flex-wrap items-center gap-2 text-lg">
              <Landmark className="size-5 text-primary" aria-hidden="true" />
              Bank transfer and UPI
              {bankTransfer.available ? <Badge variant="secondary">Available</Badge> : <Badge variant="outline">Not available</Badge>}
            </CardTitle>
            <CardDescription>Free of charge. Reviewed by our finance team by hand.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4 text-sm">
            {bankTransfer.demo && bankTransfer.payee && (
              <div role="note" className="flex items-start gap-2 rounded-lg border-2 border-destructive bg-destructive/10 p-3">
                <TriangleAlert className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden="true" />
                <p>
                  <strong className="font-semibold">Demo payee — do not pay.</strong> This server still uses made-up payee details, so money sent to them
                  would not reach Sixdigit.
                </p>
              </div>
            )}
            {bankTransfer.payee ? (
              <dl className="grid gap-2 rounded-lg border p-3">
                <Detail term="Payee">{bankTransfer.payee.name}</Detail>
                <Detail term="UPI ID">
                  <code className="font-mono break-all">{bankTransfer.payee.upiId}</code>
                </Detail>
                {bankTransfer.payee.bankDetails && <Detail term="Bank account">{bankTransfer.payee.bankDetails}</Detail>}
              </dl>
            ) : (
              <p className="text-muted-foreground">Bank and UPI top-ups are not set up on this server yet. Please contact support to pay.</p>
            )}
            <ol className="list-decimal space-y-1.5 pl-5">
              <li>Open Add Credits and choose a pack: you get a UPI QR code and a payment reference of your own.</li>
              <li>Pay the exact amount and put the reference in the transaction note (the reference is valid for {bankTransfer.referenceValidDays} days).</li>
              <li>Submit the bank transaction id (UTR) on the same page.</li>
              <li>A financial manager checks it against the bank statement and approves it: the credits are added once, and you get a notice.</li>
            </ol>
            <p className="text-muted-foreground">
              Approval usually takes {review.minHours}–{review.maxHours} hours during business hours ({review.days}, {review.hours} {review.timeZone}); payments
              submitted outside them are reviewed on the next business day. A rejected payment comes with the reason.
            </p>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle className="flex flex-wrap items-center gap-2 text-lg">
              <CreditCard className="size-5 text-primary" aria-hidden="true" />
              Card and UPI checkout
              {card.available ? <Badge variant="secondary">Available</Badge> : <Badge variant="outline">Not enabled</Badge>}
            </CardTitle>
            <CardDescription>{card.available ? 'Razorpay checkout: pay by card or UPI and get the credits at once.' : 'Razorpay checkout for cards and UPI.'}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-3 text-sm">
            {card.available ? (
              <>
                <p>Pay for a pack in Razorpay's checkout on the Add Credits page. The credits are added as soon as the payment is confirmed — no waiting for review.</p>
                <p className="flex items-start gap-2 text-muted-foreground">
                  <ShieldCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                  Card details go to Razorpay, never to Sixdigit. A payment is credited only after its signature checks, and only once.
                </p>
              </>
            ) : (
              <p className="text-muted-foreground">Card and UPI checkout is not available on this server yet. Pay by bank transfer or UPI meanwhile.</p>
            )}
          </CardContent>
        </Card>
      </div>

      <section aria-labelledby="packs-title" className="space-y-4">
        <h2 id="packs-title" className="text-xl font-semibold tracking-tight">
          Top-up packs
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {methods.packs.map((pack) => (
            <li key={pack.id}>
              <Card className="flex h-full flex-col">
                <CardHeader className="gap-2">
                  <CardTitle className="flex items-center justify-between gap-2 text-base">
                    {pack.name}
                    {pack.popular && <Badge>Popular</Badge>}
                  </CardTitle>
                  <p className="text-2xl font-semibold tabular-nums">{rupees(pack.amount)}</p>
                  <p className="text-sm text-muted-foreground">{formatCountIndian(pack.verifications)} verifications</p>
                </CardHeader>
                <CardContent className="flex flex-1 flex-col justify-between gap-4">
                  <p className="text-sm text-muted-foreground">{pack.description}</p>
                  <Button asChild variant="outline" size="sm">
                    <Link to={`${ADD_CREDITS_HREF}?pack=${pack.id}`} aria-label={`Buy the ${pack.name} pack`}>
                      Buy this pack
                    </Link>
                  </Button>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
        <p className="text-sm text-muted-foreground">
          Every rupee buys {PAISE_PER_RUPEE / PAISE_PER_VERIFICATION} verifications, with no bonus and no rounding. Unused credits are not
          refunded. Questions about a payment?{' '}
          <Link to="/contact" className="font-medium text-primary underline-offset-4 hover:underline">
            Contact support
          </Link>{' '}
          with your reference and UTR.
        </p>
      </section>
    </>
  );
}

function Fact({ icon: Icon, term, children }: { icon: typeof Wallet; term: string; children: ReactNode }) {
  return (
    <div className="rounded-xl border bg-card p-4">
      <dt className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
        <Icon className="size-4" aria-hidden="true" />
        {term}
      </dt>
      <dd className="mt-1 text-sm">{children}</dd>
    </div>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[7rem_minmax(0,1fr)] sm:gap-2">
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}
