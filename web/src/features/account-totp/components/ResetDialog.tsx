import { ConfirmDialog } from '@/components/ConfirmDialog';

interface ResetDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  pending: boolean;
}

/** Confirms replacing the account TOTP: a new secret and new backup codes. */
export function ResetDialog({ open, onOpenChange, onConfirm, pending }: ResetDialogProps) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Reset your account TOTP?"
      description="You get a new QR code, secret and 10 new backup codes, shown once."
      warning={
        <>
          The entry in your authenticator app and your remaining backup codes stop working <strong>immediately</strong>. Scan
          the new QR code right after.
        </>
      }
      confirmLabel="Reset TOTP"
      pendingLabel="Resetting…"
      pending={pending}
      onConfirm={onConfirm}
      // The new QR code's panel takes focus when the reset succeeds.
      onCloseAutoFocus={(event) => pending && event.preventDefault()}
    />
  );
}
