import { useState, type ReactNode } from 'react';
import { ArrowLeft, Building2, Clock, CreditCard, HelpCircle, Landmark, LogIn, RotateCw, TriangleAlert, Wallet } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { PAISE_PER_VERIFICATION, TOP_UP_PACKS, formatCountIndian, formatRupees, getTopUpPack, type TopUpPackId } from '@common/pricing';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { loginUrl, useCurrentUser } from '@/features/auth/api';
import { isNoBusiness, useBusinessProfile, type BusinessProfile } from '@/features/business/api';
import { balanceRupees } from '@/features/business/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { usePaymentConfig, usePaymentRequests } from './api';
import { BankQrPanel } from './components/BankQrPanel';
import { CardUpiPanel } from './components/CardUpiPanel';
import { PaymentRequestsList } from './components/PaymentRequestsList';

export const ADD_CREDITS_PATH = '/business/add-credits';

function initialPack(param: string | null): TopUpPackId {
  return (param && getTopUpPack(param)?.id) || TOP_UP_PACKS.find((p) => p.popular)?.id || TOP_UP_PACKS[0]!.id;
}

/**
 * /business/add-credits (SPEC §2): buy verification credits by bank transfer / UPI QR (a UTR
 * the finance desk approves) or, when configured, Razorpay checkout.
 */
export function AddCreditsPage() {
  useDocumentTitle('Add Credits · Sixdigit');
  const { user, isLoading } = useCurrentUser();
  const profile = useBusinessProfile();

  if (isLoading) return <PageSpinner label="Loading" />;
  if (!user) {
    return (
      <Gate icon={LogIn} title="Authentication Required" description="Please log in to add credits to your business account.">
        <Button asChild>
          <a href={loginUrl(ADD_CREDITS_PATH)}>Log In</a>
        </Button>
      </Gate>
    );
  }
  if (profile.isPending) return <PageSpinner label="Loading your business account" />;
  if (profile.isError) {
    if (isNoBusiness(profile.error)) {
      return (
        <Gate
          icon={Building2}
          title="Business Account Required"
          description="You need a business account to add credits. Set one up first — it takes a minute."
        >
          <Button asChild>
            <Link to="/business">Set up your business</Link>
          </Button>
        </Gate>
      );
    }
    return (
      <Gate icon={TriangleAlert} title="Couldn't load your business account" description="Check your connection and try again." alert>
        <Button type="button" onClick={() => void profile.refetch()} disabled={profile.isFetching}>
          <RotateCw aria-hidden="true" className={profile.isFetching ? 'animate-spin' : undefined} />
          Try again
        </Button>
      </Gate>
    );
  }
  return <AddCredits profile={profile.data} email={user.email} />;
}

function Gate({
  icon: Icon,
  title,
  description,
  alert = false,
  children,
}: {
  icon: typeof LogIn;
  title: string;
  description: string;
  alert?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-16 sm:px-6">
      <Card role={alert ? 'alert' : undefined}>
        <CardHeader>
          <h1 className="flex items-center gap-2 text-xl leading-none font-semibold tracking-tight">
            <Icon className="size-5 text-primary" aria-hidden="true" />
            {title}
          </h1>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </div>
  );
}

function AddCredits({ profile, email }: { profile: BusinessProfile; email: string }) {
  const [params] = useSearchParams();
  const [packId, setPackId] = useState<TopUpPackId>(() => initialPack(params.get('pack')));
  const config = usePaymentConfig();
  const requests = usePaymentRequests(true);

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8 sm:px-6">
      <header className="space-y-2">
        <Button asChild variant="ghost" size="sm" className="-ml-2">
          <Link to="/business">
            <ArrowLeft aria-hidden="true" />
            Back to dashboard
          </Link>
        </Button>
        <h1 className="text-3xl font-bold tracking-tight">Add Credits</h1>
        <p className="text-sm text-muted-foreground">
          {profile.companyName} · 1 credit = {formatRupees(PAISE_PER_VERIFICATION)} = one verification
        </p>
      </header>

      <Card>
        <CardContent className="flex flex-col gap-1 pt-6 sm:flex-row sm:items-center sm:gap-6">
          <p className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
            <Wallet className="size-4" aria-hidden="true" />
            Current balance
          </p>
          <p className="text-2xl font-semibold tabular-nums" data-testid="current-credits">
            {formatCountIndian(profile.credits)} credits
          </p>
          <p className="text-sm text-muted-foreground">
            worth <span className="font-medium text-foreground tabular-nums">{balanceRupees(profile.balancePaise)}</span> ·{' '}
            {formatCountIndian(profile.verificationsLeft)} verifications left
          </p>
        </CardContent>
      </Card>

      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle className="text-lg">Payment method</CardTitle>
            <CardDescription>Choose a pack, pay, and the credits are added to {profile.companyName}.</CardDescription>
          </CardHeader>
          <CardContent>
            <Tabs defaultValue="bank" className="gap-5">
              <TabsList aria-label="Payment method" className="w-full sm:w-fit">
                <TabsTrigger value="bank">
                  <Landmark aria-hidden="true" />
                  Bank QR
                </TabsTrigger>
                <TabsTrigger value="card">
                  <CreditCard aria-hidden="true" />
                  Card/UPI
                </TabsTrigger>
              </TabsList>
              <TabsContent value="bank">
                <BankQrPanel packId={packId} onPackChange={setPackId} />
              </TabsContent>
              <TabsContent value="card">
                {config.isPending ? (
                  <Skeleton className="h-40" />
                ) : (
                  <CardUpiPanel config={config.data} packId={packId} onPackChange={setPackId} payerEmail={email} />
                )}
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>

        <aside className="grid min-w-0 gap-6" aria-label="Help">
          <HelpBox />
          <BusinessHours />
        </aside>
      </div>

      <PaymentRequestsList requests={requests.data} isLoading={requests.isPending} isError={requests.isError} />
    </div>
  );
}

function HelpBox() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <HelpCircle className="size-4" aria-hidden="true" />
          How bank and UPI payments work
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="list-decimal space-y-2 pl-5 text-sm">
          <li>Choose a pack; its QR code and payment reference appear.</li>
          <li>Scan the QR with any UPI app, or pay the UPI ID the exact amount.</li>
          <li>Put the payment reference in the transaction note.</li>
          <li>Submit the bank transaction id (UTR) shown after paying.</li>
          <li>We verify it and add the credits; the dashboard shows a notice.</li>
        </ol>
        <p className="mt-4 text-sm text-muted-foreground">
          Paid but something looks wrong?{' '}
          <Link to="/contact" className="font-medium text-primary underline-offset-4 hover:underline">
            Contact support
          </Link>{' '}
          with your reference and UTR.
        </p>
      </CardContent>
    </Card>
  );
}

function BusinessHours() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Clock className="size-4" aria-hidden="true" />
          Business hours
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-2 text-sm">
        <p className="font-medium">Monday–Friday, 9 AM–6 PM IST</p>
        <p className="text-muted-foreground">
          Payments are verified within 2–4 business hours. Payments submitted outside these hours are verified on the next business day.
        </p>
      </CardContent>
    </Card>
  );
}
