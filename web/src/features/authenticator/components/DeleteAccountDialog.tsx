import { useState } from 'react';
import { TriangleAlert } from 'lucide-react';
import { accountLabel } from '@common/otpauth';
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
import { handledAsSessionExpiry, useDeleteAccount, type AuthenticatorAccount } from '../api';

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
          description: errorMessage(error, 'Failed to delete the account. Please try again.'),
        });
      },
    });
  }

  return (
    <Dialog open={account !== null} onOpenChange={(open) => !open && !remove.isPending && onClose()}>
      {/* A confirmation of a destructive step: an alert dialog to assistive technology. */}
      <DialogContent role="alertdialog">
        <DialogHeader>
          <DialogTitle>Delete this account?</DialogTitle>
          <DialogDescription>
            {shown ? <strong className="font-medium text-foreground">{accountLabel(shown)}</strong> : 'The account'} and its
            secret will be removed from your authenticator.
          </DialogDescription>
        </DialogHeader>
        <div className="flex gap-3 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm">
          <TriangleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
          <p>
            You will no longer see codes for it here. Before deleting, make sure you can still sign in to that site
            another way, or turn off two-factor authentication there first.
          </p>
        </div>
        <DialogFooter>
          <DialogClose asChild>
            <Button type="button" variant="outline" disabled={remove.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button type="button" variant="destructive" onClick={confirm} disabled={remove.isPending}>
            {remove.isPending && <Spinner label="Deleting" className="text-destructive-foreground" />}
            {remove.isPending ? 'Deleting…' : 'Delete account'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
