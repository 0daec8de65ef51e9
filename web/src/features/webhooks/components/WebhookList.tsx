import { useState } from 'react';
import { Send, Trash2, TriangleAlert, Webhook as WebhookIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useDeleteWebhook, useSendTestEvent, useToggleWebhook, type Webhook } from '../api';
import { formatDateTime } from '../format';
import { toastWebhookError } from '../toasts';
import { DeleteWebhookDialog } from './DeleteWebhookDialog';
import { Switch } from './Switch';

/** The business's endpoints: events, on/off switch, last delivery, test event and delete. */
export function WebhookList({ webhooks }: { webhooks: Webhook[] }) {
  const toggle = useToggleWebhook();
  const remove = useDeleteWebhook();
  const sendTest = useSendTestEvent();
  const [confirming, setConfirming] = useState<Webhook | null>(null);

  if (webhooks.length === 0) {
    return (
      <div className="flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed px-4 py-10 text-center text-sm text-muted-foreground">
        <WebhookIcon className="size-8" aria-hidden="true" />
        <p className="font-medium text-foreground">No webhooks yet</p>
        <p className="max-w-sm">Add an endpoint to hear about verifications and your balance as they happen.</p>
      </div>
    );
  }

  function setActive(webhook: Webhook, isActive: boolean) {
    toggle.mutate(
      { id: webhook.id, isActive },
      {
        onSuccess: () =>
          toast({ title: 'Webhook status updated', description: `${webhook.url} is now ${isActive ? 'active' : 'paused'}.` }),
        onError: (error) => toastWebhookError(error, 'Failed to update webhook'),
      },
    );
  }

  function test(webhook: Webhook) {
    sendTest.mutate(webhook.id, {
      onSuccess: () => toast({ title: 'Test event sent', description: 'A signed test.ping event is on its way; watch the delivery log.' }),
      onError: (error) => toastWebhookError(error, 'Failed to send test event'),
    });
  }

  function confirmDelete() {
    if (!confirming) return;
    remove.mutate(confirming.id, {
      onSuccess: () => {
        setConfirming(null);
        toast({ title: 'Webhook deleted' });
      },
      onError: (error) => toastWebhookError(error, 'Failed to delete webhook'),
    });
  }

  return (
    <>
      <ul className="divide-y rounded-lg border" aria-label="Webhooks">
        {webhooks.map((webhook) => {
          const toggling = toggle.isPending && toggle.variables?.id === webhook.id;
          const testing = sendTest.isPending && sendTest.variables === webhook.id;
          const switchId = `webhook-active-${webhook.id}`;
          return (
            <li key={webhook.id} className="grid gap-3 p-4" data-testid="webhook-row">
              <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
                <div className="min-w-0 space-y-2">
                  <p className="font-mono text-sm break-all">{webhook.url}</p>
                  {webhook.description && <p className="text-sm text-muted-foreground break-words">{webhook.description}</p>}
                  <ul className="flex flex-wrap gap-1.5" aria-label="Events">
                    {webhook.events.map((event) => (
                      <li key={event}>
                        <Badge variant="secondary" className="font-mono">
                          {event}
                        </Badge>
                      </li>
                    ))}
                  </ul>
                  <p className="text-xs text-muted-foreground">
                    Last triggered: {webhook.lastTriggered ? formatDateTime(webhook.lastTriggered) : 'Never'}
                  </p>
                </div>
                <div className="flex shrink-0 flex-wrap items-center gap-2">
                  {!webhook.isActive && webhook.disabledReason && (
                    <Badge variant="outline" className="border-warning/50 bg-warning/10 text-foreground" data-testid="switched-off-badge">
                      Switched off
                    </Badge>
                  )}
                  <Switch
                    id={switchId}
                    checked={webhook.isActive}
                    disabled={toggling}
                    onCheckedChange={(checked) => setActive(webhook, checked)}
                    aria-label={`Active: ${webhook.url}`}
                  />
                  <label htmlFor={switchId} className="text-sm font-medium" aria-hidden="true">
                    {webhook.isActive ? 'Active' : 'Paused'}
                  </label>
                </div>
              </div>
              {!webhook.isActive && webhook.disabledReason && (
                <p className="flex items-start gap-1.5 rounded-md bg-warning/10 px-3 py-2 text-sm" role="note">
                  <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
                  <span>
                    Switched off automatically{webhook.disabledAt ? ` on ${formatDateTime(webhook.disabledAt)}` : ''}: {webhook.disabledReason} Turn it
                    back on with the switch when the endpoint is ready.
                  </span>
                </p>
              )}
              <div className="flex flex-wrap gap-2">
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  disabled={testing || !webhook.isActive}
                  title={webhook.isActive ? undefined : 'Turn the webhook on to send a test event'}
                  onClick={() => test(webhook)}
                  aria-label={`Send test event to ${webhook.url}`}
                >
                  {testing ? <Spinner label="Sending test event" /> : <Send aria-hidden="true" />}
                  <span aria-hidden="true">Send test event</span>
                </Button>
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                  onClick={() => setConfirming(webhook)}
                  aria-label={`Delete ${webhook.url}`}
                >
                  <Trash2 aria-hidden="true" />
                  <span aria-hidden="true">Delete</span>
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
      <DeleteWebhookDialog
        url={confirming?.url ?? null}
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onOpenChange={(open) => !open && !remove.isPending && setConfirming(null)}
      />
    </>
  );
}
