import { useRef } from 'react';
import { TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useRegenerateApiKey } from '../api';
import { maskedKey } from './ApiConfigCard';

interface RegenerateKeyDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  currentPrefix: string | null;
  onRegenerated: (apiKey: string) => void;
}

export function RegenerateKeyDialog({ open, onOpenChange, currentPrefix, onRegenerated }: RegenerateKeyDialogProps) {
  const regenerate = useRegenerateApiKey();
  // After success, focus goes to the new key's panel, not back to the button that opened this.
  const succeeded = useRef(false);

  function confirm() {
    regenerate.mutate(undefined, {
      onSuccess: ({ apiKey }) => {
        succeeded.current = true;
        onOpenChange(false);
        onRegenerated(apiKey);
        toast({ title: 'API Key Regenerated', description: 'Copy the new key now — it will not be shown again.' });
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: 'Regeneration Failed',
          description: errorMessage(error, 'Failed to regenerate the API key. Your current key still works.'),
        });
      },
    });
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !regenerate.isPending && onOpenChange(next)}>
      <DialogContent
        onCloseAutoFocus={(event) => {
          if (succeeded.current) event.preventDefault();
          succeeded.current = false;
        }}
      >
        <DialogHeader>
          <DialogTitle>Regenerate API key?</DialogTitle>
          <DialogDescription>
            A new key is created and shown to you once.
          </DialogDescription>
        </DialogHeader>
        <div className="flex gap-3 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm">
          <TriangleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
          <p>
            Your current key{currentPrefix && <> (<code className="font-mono">{maskedKey(currentPrefix)}</code>)</>} stops
            working <strong>immediately</strong>. Every server still using it gets{' '}
            <code className="font-mono">401</code> errors until you deploy the new key.
          </p>
        </div>
        <DialogFooter>
          <DialogClose asChild>
            <Button type="button" variant="outline" disabled={regenerate.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button type="button" variant="destructive" onClick={confirm} disabled={regenerate.isPending}>
            {regenerate.isPending && <Spinner label="Regenerating" className="text-destructive-foreground" />}
            {regenerate.isPending ? 'Regenerating…' : 'Regenerate key'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
