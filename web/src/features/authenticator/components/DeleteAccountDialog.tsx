import { useState } from 'react';
import { accountLabel } from '@common/otpauth';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { toast } from '@/components/ui/use-toast';
import { handledAsSessionExpiry, useDeleteAccount, type AuthenticatorAccount } from '../api';
import { vaultErrorMessage } from '../messages';

interface DeleteAccountDialogProps {
  userId: string;
  /** the account to delete; null closes the dialog */
  account: AuthenticatorAccount | null;
  onClose: () => void;
}

export function DeleteAccountDialog({ userId, account, onClose }: DeleteAccountDialogProps) {
  const remove = useDeleteAccount(userId);
  // Keep naming the account while the dialog animates closed.
  const [shown, setShown] = useState(account);
  if (account && account !== shown) setShown(account);

  function confirm() {
    if (!account) return;
    remove.mutate(account.id, {
      onSuccess: () => {
        onClose();
        toast({ title: 'Account Deleted', description: `${accountLabel(account)} was removed from your authenticator.` });
      },
      onError: (error) => {
        if (handledAsSessionExpiry(error)) return;
        toast({
          variant: 'destructive',
          title: 'Error Deleting Account',
          description: vaultErrorMessage(error, 'Failed to delete the account. Please try again.'),
        });
      },
    });
  }

  return (
    <ConfirmDialog
      open={account !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Delete this account?"
      description={
        <>
          {shown ? <strong className="font-medium text-foreground">{accountLabel(shown)}</strong> : 'The account'} and its secret
          will be removed from your authenticator.
        </>
      }
      warning="You will no longer see codes for it here. Before deleting, make sure you can still sign in to that site another way, or turn off two-factor authentication there first."
      confirmLabel="Delete account"
      pendingLabel="Deleting…"
      pending={remove.isPending}
      onConfirm={confirm}
    />
  );
}
