import { useId, useState, type FormEvent } from 'react';
import { ChevronLeft, ChevronRight, Download, Filter } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/features/business/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { AUDIT_PAGE_SIZE, auditQuery, useAdminAudit, type AuditFilters } from './api';
import { AdminGate, AdminLoadError, AdminPage } from './components/AdminShell';

export function AdminAuditPage() {
  useDocumentTitle('Audit log · Sixdigit');
  return (
    <AdminGate>
      <Audit />
    </AdminGate>
  );
}

const FIELDS: Array<{ key: keyof AuditFilters; label: string; type?: string; placeholder?: string }> = [
  { key: 'actor', label: 'Actor', placeholder: 'e-mail or cli:' },
  { key: 'action', label: 'Action', placeholder: 'e.g. payment. or user.role_changed' },
  { key: 'target', label: 'Target id', placeholder: 'user, business or payment id' },
  { key: 'from', label: 'From', type: 'date' },
  { key: 'to', label: 'To', type: 'date' },
];

function Audit() {
  const [draft, setDraft] = useState<AuditFilters>({});
  const [filters, setFilters] = useState<AuditFilters>({});
  const [page, setPage] = useState(1);
  const audit = useAdminAudit(filters, page);
  const baseId = useId();
  const pages = audit.data ? Math.max(1, Math.ceil(audit.data.total / AUDIT_PAGE_SIZE)) : 1;

  function apply(event: FormEvent) {
    event.preventDefault();
    setFilters(Object.fromEntries(Object.entries(draft).filter(([, v]) => v?.trim())) as AuditFilters);
    setPage(1);
  }

  return (
    <AdminPage
      title="Audit log"
      description="Every admin action, role change, payment decision, credit grant and impersonation, newest first. Days are UTC."
      actions={
        <Button asChild variant="outline">
          <a href={`/api/admin/audit.csv?${auditQuery(filters)}`} download>
            <Download aria-hidden="true" />
            Export CSV
          </a>
        </Button>
      }
    >
      <form onSubmit={apply} className="grid gap-3 rounded-lg border bg-card p-4 sm:grid-cols-2 lg:grid-cols-6" aria-label="Filter the audit log">
        {FIELDS.map(({ key, label, type, placeholder }) => (
          <div key={key} className="space-y-1">
            <Label htmlFor={`${baseId}-${key}`}>{label}</Label>
            <Input id={`${baseId}-${key}`} type={type ?? 'text'} value={draft[key] ?? ''} placeholder={placeholder} onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))} />
          </div>
        ))}
        <div className="flex items-end gap-2">
          <Button type="submit">
            <Filter aria-hidden="true" />
            Apply
          </Button>
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              setDraft({});
              setFilters({});
              setPage(1);
            }}
          >
            Clear
          </Button>
        </div>
      </form>

      {audit.isPending ? (
        <Skeleton className="h-64" />
      ) : audit.isError ? (
        <AdminLoadError error={audit.error} what="the audit log" onRetry={() => void audit.refetch()} />
      ) : audit.data.entries.length === 0 ? (
        <Card>
          <CardContent className="py-10 text-center text-sm text-muted-foreground">No entries match these filters.</CardContent>
        </Card>
      ) : (
        <Card>
          <CardContent className="overflow-x-auto p-0">
            <table className="w-full min-w-[720px] text-left text-sm">
              <caption className="sr-only">Audit entries</caption>
              <thead className="border-b bg-muted/50 text-xs text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">When</th>
                  <th scope="col" className="px-4 py-2 font-medium">Actor</th>
                  <th scope="col" className="px-4 py-2 font-medium">Action</th>
                  <th scope="col" className="px-4 py-2 font-medium">Target</th>
                  <th scope="col" className="px-4 py-2 font-medium">Details</th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {audit.data.entries.map((e) => (
                  <tr key={e.id} className="align-top">
                    <td className="px-4 py-2 whitespace-nowrap">{formatDateTime(e.createdAt)}</td>
                    <td className="px-4 py-2 break-all">{e.actorLabel}</td>
                    <td className="px-4 py-2 font-mono text-xs">{e.action}</td>
                    <td className="px-4 py-2 font-mono text-xs break-all">{e.subjectId ? `${e.subjectType ?? ''} ${e.subjectId}` : '—'}</td>
                    <td className="max-w-xs px-4 py-2 font-mono text-xs break-all text-muted-foreground">{Object.keys(e.details).length ? JSON.stringify(e.details) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </CardContent>
        </Card>
      )}
      {audit.data && audit.data.total > 0 && (
        <nav aria-label="Audit log pages" className="flex items-center justify-between gap-3 text-sm">
          <span className="text-muted-foreground">
            Page {page} of {pages} · {audit.data.total} entries
          </span>
          <span className="flex gap-2">
            <Button type="button" variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              <ChevronLeft aria-hidden="true" />
              Previous
            </Button>
            <Button type="button" variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
              Next
              <ChevronRight aria-hidden="true" />
            </Button>
          </span>
        </nav>
      )}
    </AdminPage>
  );
}
