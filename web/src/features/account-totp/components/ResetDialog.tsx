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

interface ResetDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  pending: boolean;
}

/** Confirms replacing the account TOTP: a new secret and new backup codes. */
export function ResetDialog({ open, onOpenChange, onConfirm, pending }: ResetDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent onCloseAutoFocus={(event) => pending && event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>Reset your account TOTP?</DialogTitle>
          <DialogDescription>You get a new QR code, secret and 10 new backup codes, shown once.</DialogDescription>
        </DialogHeader>
        <div className="flex gap-3 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm">
          <TriangleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
          <p>
            The entry in your authenticator app and your remaining backup codes stop working{' '}
            <strong>immediately</strong>. Scan the new QR code right after.
          </p>
        </div>
        <DialogFooter>
          <DialogClose asChild>
            <Button type="button" variant="outline" disabled={pending}>
              Cancel
            </Button>
          </DialogClose>
          <Button type="button" variant="destructive" onClick={onConfirm} disabled={pending}>
            {pending && <Spinner label="Resetting" className="text-destructive-foreground" />}
            {pending ? 'Resetting…' : 'Reset TOTP'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
