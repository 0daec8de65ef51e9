import { useId, useState } from 'react';
import { Bot, CheckCircle2, Inbox, ShieldAlert } from 'lucide-react';
import { FormDialog, FormDialogBody } from '@/components/FormDialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { formatDateTime } from '@/features/business/format';
import { CATEGORY_LABELS, STATUS_LABELS, useCloseMessage, useDeskMessages, useEscalateMessage, type DeskMessage } from '@/features/contact/api';
import { Markdown } from '@/features/luna/Markdown';
import { errorMessage } from '@/lib/api';

/** SPEC: the desk's status filter. */
export const MESSAGE_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'open', label: 'Open' },
  { value: 'assigned_to_luna', label: 'Luna' },
  { value: 'escalated', label: 'Escalated' },
] as const;

export function ContactMessages() {
  const [filter, setFilter] = useState<(typeof MESSAGE_FILTERS)[number]['value']>('all');
  const [closing, setClosing] = useState<DeskMessage | null>(null);
  const messages = useDeskMessages(filter);
  const escalate = useEscalateMessage();

  function escalateTo(m: DeskMessage, to: 'luna' | 'admin') {
    escalate.mutate(
      { id: m.id, escalationType: to },
      {
        onSuccess: () => toast({ title: to === 'luna' ? 'Sent to Luna' : 'Escalated to the admin', description: m.subject }),
        onError: (error) => toast({ variant: 'destructive', title: 'Escalation Failed', description: errorMessage(error, 'Please try again.') }),
      },
    );
  }

  return (
    <section aria-labelledby="messages-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="messages-heading" className="text-xl font-semibold">
          Contact messages
        </h2>
        <div role="group" aria-label="Filter messages" className="flex flex-wrap gap-1">
          {MESSAGE_FILTERS.map((f) => (
            <Button key={f.value} type="button" size="sm" variant={filter === f.value ? 'default' : 'outline'} aria-pressed={filter === f.value} onClick={() => setFilter(f.value)}>
              {f.label}
            </Button>
          ))}
        </div>
      </div>
      {messages.isPending ? (
        <Skeleton className="h-32" />
      ) : messages.isError ? (
        <p role="alert" className="text-sm text-destructive">Couldn&apos;t load the messages.</p>
      ) : messages.data.messages.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-2 py-10 text-center text-sm text-muted-foreground">
            <Inbox className="size-8" aria-hidden="true" />
            No messages here.
          </CardContent>
        </Card>
      ) : (
        <ul className="grid gap-3" aria-label="Contact messages">
          {messages.data.messages.map((m) => (
            <li key={m.id}>
              <Card>
                <CardContent className="space-y-3 pt-6 text-sm">
                  <div className="flex flex-wrap items-center gap-2">
                    {m.priority === 'urgent' && <Badge variant="destructive">Urgent</Badge>}
                    <Badge variant="outline">{CATEGORY_LABELS[m.category]}</Badge>
                    <Badge variant={m.status === 'closed' ? 'secondary' : 'default'}>{STATUS_LABELS[m.status]}</Badge>
                    <span className="font-mono text-xs">{m.reference}</span>
                  </div>
                  <div>
                    <p className="font-semibold break-words">{m.subject}</p>
                    <p className="break-all text-muted-foreground">
                      {m.email}
                      {m.companyName ? ` · ${m.companyName}` : ''} · {formatDateTime(m.createdAt)}
                    </p>
                  </div>
                  <p className="whitespace-pre-wrap break-words">{m.message}</p>
                  {m.lunaResponse && (
                    <details className="rounded-md border bg-muted/40 p-3">
                      <summary className="cursor-pointer text-xs font-medium text-primary">Luna&apos;s answer</summary>
                      <Markdown>{m.lunaResponse}</Markdown>
                    </details>
                  )}
                  {m.resolution && <p className="rounded-md bg-success/10 p-2">Resolution: {m.resolution}</p>}
                  {m.status !== 'closed' && (
                    <div className="flex flex-wrap gap-2">
                      {m.escalatedTo !== 'luna' && (
                        <Button type="button" size="sm" variant="outline" disabled={escalate.isPending} onClick={() => escalateTo(m, 'luna')} aria-label={`Send to Luna: ${m.subject}`}>
                          <Bot aria-hidden="true" />
                          Send to Luna
                        </Button>
                      )}
                      {m.escalatedTo !== 'admin' && (
                        <Button type="button" size="sm" variant="outline" disabled={escalate.isPending} onClick={() => escalateTo(m, 'admin')} aria-label={`Escalate to admin: ${m.subject}`}>
                          <ShieldAlert aria-hidden="true" />
                          Escalate to admin
                        </Button>
                      )}
                      <Button type="button" size="sm" onClick={() => setClosing(m)} aria-label={`Close: ${m.subject}`}>
                        <CheckCircle2 aria-hidden="true" />
                        Close
                      </Button>
                    </div>
                  )}
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <CloseDialog message={closing} onClose={() => setClosing(null)} />
    </section>
  );
}

function CloseDialog({ message, onClose }: { message: DeskMessage | null; onClose: () => void }) {
  const close = useCloseMessage();
  const [resolution, setResolution] = useState('');
  const id = useId();
  return (
    <FormDialog open={message !== null} onOpenChange={(open) => !open && !close.isPending && onClose()}>
      <FormDialogBody
        title="Close this message"
        description="Say how it was resolved; the sender sees it."
        cancelDisabled={close.isPending}
        actions={
          <Button type="submit" disabled={!resolution.trim() || close.isPending}>
            {close.isPending && <Spinner label="Closing" className="text-primary-foreground" />}
            Close message
          </Button>
        }
        onSubmit={(e) => {
          e.preventDefault();
          if (!message || !resolution.trim()) return;
          close.mutate(
            { id: message.id, resolution: resolution.trim() },
            {
              onSuccess: () => {
                toast({ title: 'Message closed', description: message.subject });
                setResolution('');
                onClose();
              },
              onError: (error) => toast({ variant: 'destructive', title: 'Close Failed', description: errorMessage(error, 'Please try again.') }),
            },
          );
        }}
      >
        <div className="space-y-1">
          <Label htmlFor={id}>Resolution notes</Label>
          <textarea
            id={id}
            rows={4}
            value={resolution}
            onChange={(e) => setResolution(e.target.value.slice(0, 2000))}
            className="w-full rounded-md border border-input bg-background px-3 py-2 text-sm shadow-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          />
        </div>
      </FormDialogBody>
    </FormDialog>
  );
}
