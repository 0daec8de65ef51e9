import { ConfirmDialog } from '@/components/ConfirmDialog';

interface DeleteWebhookDialogProps {
  url: string | null;
  pending: boolean;
  onConfirm: () => void;
  onOpenChange: (open: boolean) => void;
}

/** "Are you sure?" before a webhook (and its delivery log) is deleted. */
export function DeleteWebhookDialog({ url, pending, onConfirm, onOpenChange }: DeleteWebhookDialogProps) {
  return (
    <ConfirmDialog
      open={url !== null}
      onOpenChange={onOpenChange}
      title="Delete this webhook?"
      description={<>{url} will stop receiving events, and its delivery log is deleted with it. This cannot be undone.</>}
      confirmLabel="Delete webhook"
      pendingLabel="Deleting webhook…"
      pending={pending}
      onConfirm={onConfirm}
    />
  );
}
