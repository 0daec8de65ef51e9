import { useRef } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useRegenerateApiKey, type ApiMode } from '../api';
import { maskedKey } from './ApiConfigCard';

interface RegenerateKeyDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** which key: the other mode's keeps working */
  mode: ApiMode;
  currentPrefix: string | null;
  onRegenerated: (apiKey: string, mode: ApiMode) => void;
}

export function RegenerateKeyDialog({ open, onOpenChange, mode, currentPrefix, onRegenerated }: RegenerateKeyDialogProps) {
  const test = mode === 'test';
  const regenerate = useRegenerateApiKey();
  const succeeded = useRef(false);

  function confirm() {
    regenerate.mutate(mode, {
      onSuccess: ({ apiKey }) => {
        succeeded.current = true;
        onOpenChange(false);
        onRegenerated(apiKey, mode);
        toast({ title: test ? 'Test Key Regenerated' : 'API Key Regenerated', description: 'Copy the new key now — it will not be shown again.' });
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
title={test ? 'Regenerate test key?' : 'Regenerate API key?'}
      description={test ? 'A new test key is created and shown to you once. Your live key is not affected.' : 'A new key is created and shown to you once. Your test key is not affected.'}
      warning={
        currentPrefix ? (
          <>
            Your current {test ? 'test ' : ''}key (<code className="font-mono">{maskedKey(currentPrefix)}</code>) stops working{' '}
            <strong>immediately</strong>. Every server still using it gets <code className="font-mono">401</code> errors until you
            deploy the new key.
          </>
        ) : undefined
      }
      confirmLabel={test ? (currentPrefix ? 'Regenerate test key' : 'Create test key') : 'Regenerate key'}
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
