import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import { Trash2 } from 'lucide-react';
import { Button, buttonVariants } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';

interface DeleteWebhookDialogProps {
  url: string | null;
  pending: boolean;
  onConfirm: () => void;
  onOpenChange: (open: boolean) => void;
}

/** "Are you sure?" before a webhook (and its delivery log) is deleted. */
export function DeleteWebhookDialog({ url, pending, onConfirm, onOpenChange }: DeleteWebhookDialogProps) {
  return (
    <AlertDialogPrimitive.Root open={url !== null} onOpenChange={onOpenChange}>
      <AlertDialogPrimitive.Portal>
        <AlertDialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-fade-in" />
        <AlertDialogPrimitive.Content className="fixed top-1/2 left-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border bg-background p-6 shadow-lg outline-none data-[state=open]:animate-dialog-in">
          <AlertDialogPrimitive.Title className="text-lg font-semibold">Delete this webhook?</AlertDialogPrimitive.Title>
          <AlertDialogPrimitive.Description className="text-sm break-all text-muted-foreground">
            {url} will stop receiving events, and its delivery log is deleted with it. This cannot be undone.
          </AlertDialogPrimitive.Description>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogPrimitive.Cancel className={buttonVariants({ variant: 'outline' })}>Cancel</AlertDialogPrimitive.Cancel>
            {/* Not an AlertDialog.Action: the dialog stays open (with a spinner) until the server answers. */}
            <Button type="button" variant="destructive" className={cn(pending && 'cursor-wait')} disabled={pending} onClick={onConfirm}>
              {pending ? <Spinner label="Deleting webhook" className="text-destructive-foreground" /> : <Trash2 aria-hidden="true" />}
              Delete webhook
            </Button>
          </div>
        </AlertDialogPrimitive.Content>
      </AlertDialogPrimitive.Portal>
    </AlertDialogPrimitive.Root>
  );
}
