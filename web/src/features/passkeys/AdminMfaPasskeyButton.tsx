import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { adminKeys } from '@/features/admin/api';
import { isCancelled, passkeyErrorMessage, verifyAdminMfaWithPasskey } from './api';

/**
 * On the /admin MFA prompt: a passkey (with user verification) instead of the authenticator code.
 * Failures count toward the same 5-in-15-minutes limit as wrong codes (the server's rule).
 */
export function AdminMfaPasskeyButton() {
  const client = useQueryClient();
  const verify = useMutation({
    mutationFn: verifyAdminMfaWithPasskey,
    onSuccess: () => {
      toast({ title: 'MFA Verified', description: 'Admin access is active for 30 minutes.' });
      void client.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (error) => {
      if (isCancelled(error)) return;
      toast({ variant: 'destructive', title: 'Passkey not accepted', description: passkeyErrorMessage(error) });
    },
  });
  return (
    <div className="mt-4 border-t pt-4">
      <Button type="button" variant="outline" onClick={() => verify.mutate()} disabled={verify.isPending}>
        {verify.isPending ? <Spinner label="Waiting for your passkey" /> : <KeyRound aria-hidden="true" />}
        Use a passkey
      </Button>
    </div>
  );
}
