import { useRef } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
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
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Regenerate API key?"
      description="A new key is created and shown to you once."
      warning={
        <>
          Your current key{currentPrefix && <> (<code className="font-mono">{maskedKey(currentPrefix)}</code>)</>} stops working{' '}
          <strong>immediately</strong>. Every server still using it gets <code className="font-mono">401</code> errors until you
          deploy the new key.
        </>
      }
      confirmLabel="Regenerate key"
      pendingLabel="Regenerating…"
      pending={regenerate.isPending}
      onConfirm={confirm}
      onCloseAutoFocus={(event) => {
        // After success, focus goes to the new key's panel, not back to the button that opened this.
        if (succeeded.current) event.preventDefault();
        succeeded.current = false;
      }}
    />
  );
}
