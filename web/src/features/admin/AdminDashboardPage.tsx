import { Activity, BadgeIndianRupee, Database, KeyRound, Send, Server, ShieldCheck, Users } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime, timeAgo } from '@/features/business/format';
import { rupeesText } from '@/features/payments/components/PaymentRequestsList';
import { useDocumentTitle } from '@/lib/use-document-title';
import { ADMIN_TOOLS } from './AdminSetupPage';
import { useAdminDashboard, type AdminDashboard, type AuditEntry } from './api';
import { AdminGate, AdminLoadError, AdminPage } from './components/AdminShell';

export function AdminDashboardPage() {
  useDocumentTitle('Admin dashboard · Sixdigit');
  return (
    <AdminGate>
      <Dashboard />
    </AdminGate>
  );
}

function Dashboard() {
  const dashboard = useAdminDashboard();
  return (
    <AdminPage title="Admin dashboard" description="Live figures from the database, refreshed every 30 seconds.">
      {dashboard.isPending ? (
        <div role="status" aria-label="Loading the dashboard" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-28" />
          ))}
        </div>
      ) : dashboard.isError ? (
        <AdminLoadError error={dashboard.error} what="the dashboard" onRetry={() => void dashboard.refetch()} />
      ) : (
        <DashboardBody data={dashboard.data} />
      )}
    </AdminPage>
  );
}

function Stat({ label, value, icon: Icon }: { label: string; value: string; icon: typeof Users }) {
  return (
    <Card>
      <CardContent className="flex items-start justify-between gap-3 p-5">
        <div>
          <p className="text-sm text-muted-foreground">{label}</p>
          <p className="mt-1 text-3xl font-bold tabular-nums">{value}</p>
        </div>
        <Icon className="size-5 text-primary" aria-hidden="true" />
      </CardContent>
    </Card>
  );
}

function Health({ label, ok, detail, icon: Icon }: { label: string; ok: boolean | null; detail: string; icon: typeof Database }) {
  return (
    <li className="flex items-center justify-between gap-3 py-2">
      <span className="flex items-center gap-2">
        <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
        <span className="font-medium">{label}</span>
      </span>
      <span className="flex items-center gap-2 text-right text-muted-foreground">
        <span className="text-xs">{detail}</span>
        {ok === null ? <Badge variant="secondary">Not configured</Badge> : ok ? <Badge variant="success">Online</Badge> : <Badge variant="destructive">Down</Badge>}
      </span>
    </li>
  );
}

export function describeAudit(entry: AuditEntry): string {
  const subject = entry.subjectId ? ` ${entry.subjectType ?? ''} ${entry.subjectId}`.trimEnd() : '';
  return `${entry.action}${subject}`;
}

function DashboardBody({ data }: { data: AdminDashboard }) {
  const { totals, pendingApprovals, service } = data;
  const outboxAge = service.webhooks.oldestDueAgeSeconds;
  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Stat label="Total Users" value={totals.users.toLocaleString('en-IN')} icon={Users} />
        <Stat label="Active API Keys" value={totals.activeApiKeys.toLocaleString('en-IN')} icon={KeyRound} />
        <Stat label="Verifications Today" value={totals.verificationsToday.toLocaleString('en-IN')} icon={ShieldCheck} />
        <Stat label="Revenue Today" value={rupeesText(totals.revenueToday)} icon={BadgeIndianRupee} />
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader className="flex-row items-center justify-between gap-2">
            <CardTitle className="text-base">Payment Approvals</CardTitle>
            <Badge variant={pendingApprovals.count ? 'destructive' : 'secondary'}>{pendingApprovals.count} pending</Badge>
          </CardHeader>
          <CardContent className="space-y-3 text-sm">
            {pendingApprovals.items.length === 0 ? (
              <p className="text-muted-foreground">No payments are waiting for approval.</p>
            ) : (
              <ul className="divide-y">
                {pendingApprovals.items.map((p) => (
                  <li key={p.id} className="flex items-center justify-between gap-3 py-2">
                    <span className="min-w-0 truncate">{p.companyName}</span>
                    <span className="shrink-0 font-medium tabular-nums">{rupeesText(p.amount)}</span>
                  </li>
                ))}
              </ul>
            )}
            <p className="text-muted-foreground">Waiting: {rupeesText(pendingApprovals.amount)}</p>
            <Button asChild variant="outline" size="sm">
              <Link to="/admin/payments">Review payments</Link>
            </Button>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle className="text-base">Service status</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="divide-y text-sm">
              <Health label="Database" ok={service.database.ok} detail={service.database.latencyMs === null ? 'no answer' : `${service.database.latencyMs} ms`} icon={Database} />
              <Health label="Redis" ok={service.redis.configured ? service.redis.ok : null} detail={service.redis.latencyMs === null ? '' : `${service.redis.latencyMs} ms`} icon={Server} />
              <Health
                label="Webhook worker"
                ok={service.worker.enabled ? service.worker.ok : null}
                detail={service.worker.lastHeartbeatAt ? `beat ${timeAgo(service.worker.lastHeartbeatAt)}` : 'no heartbeat yet'}
                icon={Activity}
              />
              <Health
                label="Webhook outbox"
                ok={outboxAge === null || outboxAge < 120}
                detail={`${service.webhooks.outboxDepth} waiting${outboxAge === null ? '' : `, oldest due ${outboxAge} s ago`}`}
                icon={Send}
              />
            </ul>
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader className="flex-row items-center justify-between gap-2">
          <CardTitle className="text-base">Escalated to you</CardTitle>
          <Badge variant={data.escalatedMessages.count ? 'destructive' : 'secondary'}>{data.escalatedMessages.count} waiting</Badge>
        </CardHeader>
        <CardContent className="space-y-3 text-sm">
          {data.escalatedMessages.items.length === 0 ? (
            <p className="text-muted-foreground">No refund requests or escalated messages.</p>
          ) : (
            <ul className="divide-y" aria-label="Messages escalated to the admin">
              {data.escalatedMessages.items.map((m) => (
                <li key={m.id} className="flex flex-col gap-0.5 py-2 sm:flex-row sm:items-center sm:justify-between">
                  <span className="min-w-0 break-words">
                    <span className="font-medium">{m.subject}</span> <span className="text-muted-foreground">· {m.email}</span>
                  </span>
                  <span className="shrink-0 font-mono text-xs">{m.reference}</span>
                </li>
              ))}
            </ul>
          )}
          <Button asChild variant="outline" size="sm">
            <Link to="/financial-manager">Answer on the desk</Link>
          </Button>
        </CardContent>
      </Card>

      <section aria-labelledby="tools-heading" className="space-y-3">
        <h2 id="tools-heading" className="text-xl font-semibold">
          Admin tools
        </h2>
        <div className="flex flex-wrap gap-2">
          {ADMIN_TOOLS.filter((t) => t.to !== '/admin/dashboard').map(({ to, label, icon: Icon }) => (
            <Button key={to} asChild variant="outline">
              <Link to={to}>
                <Icon aria-hidden="true" />
                {label}
              </Link>
            </Button>
          ))}
        </div>
      </section>

      <Card>
        <CardHeader className="flex-row items-center justify-between gap-2">
          <CardTitle className="text-base">Recent activity</CardTitle>
          <Button asChild variant="link" size="sm">
            <Link to="/admin/audit">Full audit log</Link>
          </Button>
        </CardHeader>
        <CardContent>
          {data.recentActivity.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nothing has happened yet.</p>
          ) : (
            <ul className="divide-y text-sm">
              {data.recentActivity.map((e) => (
                <li key={e.id} className="flex flex-col gap-0.5 py-2 sm:flex-row sm:items-center sm:justify-between">
                  <span className="min-w-0 break-words">
                    <span className="font-medium">{e.actorLabel}</span> · <span className="font-mono text-xs">{describeAudit(e)}</span>
                  </span>
                  <time className="shrink-0 text-xs text-muted-foreground" dateTime={e.createdAt}>
                    {formatDateTime(e.createdAt)}
                  </time>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
