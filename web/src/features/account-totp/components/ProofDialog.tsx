import { useId, useState, type FormEvent } from 'react';
import { FormDialog, FormDialogBody } from '@/components/FormDialog';
import { SixDigitInput } from '@/components/SixDigitInput';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { proofErrorMessage, type TotpProofBody } from '../api';

interface ProofDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  actionLabel: string;
  pendingLabel: string;
  destructive?: boolean;
  pending: boolean;
  error: unknown;
  onSubmit: (proof: TotpProofBody) => void;
}

/**
 * Asks for a current code from the app, or one backup code, before a change to the second factor:
 * whoever holds only the session cookie must not be able to turn it off or read new backup codes.
 */
export function ProofDialog(props: ProofDialogProps) {
  return (
    <FormDialog open={props.open} onOpenChange={(open) => !props.pending && props.onOpenChange(open)}>
      <ProofForm {...props} />
    </FormDialog>
  );
}

function ProofForm({ title, description, actionLabel, pendingLabel, destructive, pending, error, onSubmit }: ProofDialogProps) {
  const [usingBackup, setUsingBackup] = useState(false);
  const [code, setCode] = useState('');
  const [backupCode, setBackupCode] = useState('');
  const ids = { code: useId(), backup: useId(), error: useId() };
  const ready = usingBackup ? backupCode.replace(/[^0-9a-z]/gi, '').length >= 8 : code.length === 6;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (ready && !pending) onSubmit(usingBackup ? { backupCode: backupCode.trim() } : { code });
  }

  const message = error ? proofErrorMessage(error, usingBackup) : null;
  return (
    <FormDialogBody
      title={title}
      description={description}
      onSubmit={submit}
      noValidate
      cancelDisabled={pending}
      actions={
        <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={!ready || pending}>
          {pending && <Spinner label={pendingLabel} />}
          {pending ? pendingLabel : actionLabel}
        </Button>
      }
    >
      <div className="space-y-2">
        {usingBackup ? (
          <>
            <Label htmlFor={ids.backup}>Backup code</Label>
            <Input id={ids.backup} autoComplete="off" autoCapitalize="none" spellCheck={false} placeholder="xxxx-xxxx" maxLength={32} value={backupCode} onChange={(e) => setBackupCode(e.target.value)} className="max-w-[13rem] font-mono" aria-describedby={message ? ids.error : undefined} />
          </>
        ) : (
          <>
            <Label htmlFor={ids.code}>Code from your authenticator app</Label>
            <SixDigitInput id={ids.code} value={code} onChange={setCode} autoFocus invalid={Boolean(message)} describedBy={message ? ids.error : undefined} />
          </>
        )}
        {message && (
          <p id={ids.error} role="alert" className="text-sm font-medium text-destructive">
            {message}
          </p>
        )}
        <Button type="button" variant="link" className="h-auto p-0 text-sm" onClick={() => setUsingBackup(!usingBackup)}>
          {usingBackup ? 'Use a code from my app instead' : 'Use a backup code instead'}
        </Button>
      </div>
    </FormDialogBody>
  );
}
