import { Suspense, lazy, useState } from 'react';
import { BookOpen, LayoutDashboard, QrCode, RotateCw, TriangleAlert } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { QrTestPage } from '@/features/qr-test/QrTestPage';
import { WebhooksSection } from '@/features/webhooks/WebhooksSection';
import { PaymentNotifications } from '@/features/payments/PaymentNotifications';
import { useDocumentTitle } from '@/lib/use-document-title';
import {
  isNoBusiness,
  useBusinessDashboard,
  useBusinessProfile,
  useLedger,
  usePaymentHistory,
  type ApiMode,
  type BusinessProfile,
} from './api';
import { AddCreditsDialog } from './components/AddCreditsDialog';
import { ApiConfigCard, OPENAPI_URL } from './components/ApiConfigCard';
import { ApiKeyReveal, type RevealedKey } from './components/ApiKeyReveal';
import { AutoRefillCard } from './components/AutoRefillCard';
import { AutoRefillDialog } from './components/AutoRefillDialog';
import { BalanceAlert, BalanceCard } from './components/Balance';
import { BillingCard } from './components/BillingCard';
import { CreditHistory } from './components/CreditHistory';
import { DashboardSkeleton, StatsSkeleton } from './components/DashboardSkeleton';
import { ExportUsageDialog } from './components/ExportUsageDialog';
import { PaymentHistory } from './components/PaymentHistory';
import { QuickActions, type QuickAction } from './components/QuickActions';
import { RecentVerifications } from './components/RecentVerifications';
import { RegenerateKeyDialog } from './components/RegenerateKeyDialog';
import { SetupForm } from './components/SetupForm';
import { MonthStats, TodayStats } from './components/Stats';
import { ModeSwitch, TestModeBanner } from './components/ModeSwitch';
import { formatDate } from './format';

// The chart library is large; load it only when a dashboard is shown.
const DailyChart = lazy(() => import('./components/DailyChart').then((m) => ({ default: m.DailyChart })));

type Tab = 'overview' | 'integration';

/**
 * /business (SPEC §2): the set-up form when there is no business yet (the profile answers 404),
 * otherwise the dashboard. The full API key is kept in this component's state only, so it is
 * shown once — right after creation or regeneration — and forgotten when the page is left.
 */
export function BusinessPage() {
  useDocumentTitle('Business · Sixdigit');
  const profile = useBusinessProfile();
  const [revealed, setRevealed] = useState<RevealedKey | null>(null);

  if (profile.isPending) return <DashboardSkeleton />;

  if (profile.isError) {
    if (isNoBusiness(profile.error)) {
      return <SetupForm onCreated={(apiKey, testApiKey) => setRevealed({ apiKey, testApiKey, reason: 'created', mode: 'live' })} />;
    }
    return <LoadError onRetry={() => void profile.refetch()} retrying={profile.isFetching} />;
  }

  return (
    <Dashboard
      profile={profile.data}
      revealed={revealed}
      onReveal={(apiKey, mode) => setRevealed({ apiKey, reason: 'regenerated', mode })}
      onHideKey={() => setRevealed(null)}
    />
  );
}

function LoadError({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-16 sm:px-6">
      <Card role="alert">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <TriangleAlert className="size-5 text-destructive" aria-hidden="true" />
            Couldn&apos;t load your business account
          </CardTitle>
          <CardDescription>Check your connection and try again.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button type="button" onClick={onRetry} disabled={retrying}>
            <RotateCw aria-hidden="true" className={retrying ? 'animate-spin' : undefined} />
            Try again
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}

interface DashboardProps {
  profile: BusinessProfile;
  revealed: RevealedKey | null;
  onReveal: (apiKey: string, mode: ApiMode) => void;
  onHideKey: () => void;
}

function Dashboard({ profile, revealed, onReveal, onHideKey }: DashboardProps) {
  const [params, setParams] = useSearchParams();
  // ?mode=test: the test key, test statistics, lists, webhooks and export (live by default).
  const mode: ApiMode = params.get('mode') === 'test' ? 'test' : 'live';
  const dashboard = useBusinessDashboard(true, mode);
  const ledger = useLedger(true);
  const payments = usePaymentHistory(true);
  const tab: Tab = params.get('tab') === 'integration' ? 'integration' : 'overview';
  const [regenerateMode, setRegenerateMode] = useState<ApiMode>('live');

  function changeMode(next: ApiMode) {
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next === 'live') copy.delete('mode');
        else copy.set('mode', next);
        return copy;
      },
      { replace: true },
    );
  }
  const [dialog, setDialog] = useState<QuickAction | null>(null);
  const [preferredPack, setPreferredPack] = useState<string | null>(null);

  function openCredits(packId?: string | null) {
    setPreferredPack(packId ?? null);
    setDialog('credits');
  }

  function changeTab(next: string) {
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next === 'overview') copy.delete('tab');
        else copy.set('tab', next);
        return copy;
      },
      { replace: true },
    );
  }

  const closeDialog = (open: boolean) => !open && setDialog(null);

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8 sm:px-6">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0 space-y-1">
          <p className="text-sm font-medium text-primary">Business dashboard</p>
          <h1 className="truncate text-3xl font-bold tracking-tight" title={profile.companyName}>
            {profile.companyName}
          </h1>
          <p className="text-sm text-muted-foreground">
            Since {formatDate(profile.createdAt)} · ID <code className="font-mono text-xs">{profile.id}</code>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2 self-start sm:self-auto">
          <ModeSwitch mode={mode} onChange={changeMode} label="Show live or test data" />
          <Button asChild variant="outline" size="sm">
            <a href={OPENAPI_URL} target="_blank" rel="noreferrer">
              <BookOpen aria-hidden="true" />
              API docs
            </a>
          </Button>
        </div>
      </header>

      {mode === 'test' && <TestModeBanner onLeave={() => changeMode('live')} />}

      {revealed && <ApiKeyReveal revealed={revealed} onDismiss={onHideKey} />}
      <BalanceAlert profile={profile} onAddCredits={openCredits} />

      <Tabs value={tab} onValueChange={changeTab} className="gap-6">
        <TabsList aria-label="Business dashboard sections">
          <TabsTrigger value="overview">
            <LayoutDashboard aria-hidden="true" />
            Overview
          </TabsTrigger>
          <TabsTrigger value="integration">
            <QrCode aria-hidden="true" />
            Integration test
          </TabsTrigger>
        </TabsList>

        <TabsContent value="overview" className="space-y-8">
          <PaymentNotifications />
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
            <div className="grid min-w-0 grid-cols-1 content-start gap-6">
              <BalanceCard profile={profile} onAddCredits={() => openCredits(profile.autoRefill.packId)} />
              <QuickActions
                autoRefill={profile.autoRefill}
                onAction={(action) => {
                  if (action === 'credits') return openCredits();
                  if (action === 'regenerate') setRegenerateMode(mode);
                  setDialog(action);
                }}
              />
              <AutoRefillCard settings={profile.autoRefill} onEdit={() => setDialog('refill')} />
            </div>
            <ApiConfigCard
              profile={profile}
              mode={mode}
              onModeChange={changeMode}
              onRegenerate={(which) => {
                setRegenerateMode(which);
                setDialog('regenerate');
              }}
            />
          </div>

          {dashboard.isPending ? (
            <div role="status" aria-label="Loading statistics">
              <StatsSkeleton />
            </div>
          ) : dashboard.isError ? (
            <Card role="alert">
              <CardHeader>
                <CardTitle className="flex items-center gap-2 text-base">
                  <TriangleAlert className="size-5 text-destructive" aria-hidden="true" />
                  Couldn&apos;t load your statistics
                </CardTitle>
              </CardHeader>
              <CardContent>
                <Button type="button" variant="outline" onClick={() => void dashboard.refetch()} disabled={dashboard.isFetching}>
                  <RotateCw aria-hidden="true" />
                  Try again
                </Button>
              </CardContent>
            </Card>
          ) : (
            <>
              <TodayStats today={dashboard.data.stats.today} />
              <MonthStats month={dashboard.data.stats.month} />
              <Suspense fallback={<Skeleton className="h-80 rounded-xl" />}>
                <DailyChart daily={dashboard.data.stats.daily} />
              </Suspense>
              <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
                <RecentVerifications items={dashboard.data.recentVerifications} />
                <CreditHistory entries={ledger.data} isLoading={ledger.isPending} />
              </div>
            </>
          )}
          <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
            <PaymentHistory entries={payments.data} isLoading={payments.isPending} isError={payments.isError} />
            <BillingCard />
          </div>
          <WebhooksSection mode={mode} />
        </TabsContent>

        <TabsContent value="integration">
          <QrTestPage embedded />
        </TabsContent>
      </Tabs>

      <AddCreditsDialog
        open={dialog === 'credits'}
        onOpenChange={closeDialog}
        balancePaise={profile.balancePaise}
        preferredPack={preferredPack}
      />
      <RegenerateKeyDialog
        open={dialog === 'regenerate'}
        onOpenChange={closeDialog}
        mode={regenerateMode}
        currentPrefix={regenerateMode === 'test' ? profile.testApiKeyPrefix : profile.apiKeyPrefix}
        onRegenerated={onReveal}
      />
      <ExportUsageDialog open={dialog === 'export'} onOpenChange={closeDialog} mode={mode} />
      <AutoRefillDialog open={dialog === 'refill'} onOpenChange={closeDialog} settings={profile.autoRefill} />
    </div>
  );
}
