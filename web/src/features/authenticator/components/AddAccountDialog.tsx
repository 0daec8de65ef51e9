import { useState } from 'react';
import { Camera, ImageUp, Keyboard } from 'lucide-react';
import { accountLabel, type OtpAccount } from '@common/otpauth';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import { handledAsSessionExpiry, useAddAccount } from '../api';
import { EMPTY_FORM, accountToForm, checkForm, hasAdvancedSettings, type AccountForm } from '../form';
import { QR_DETECTED, vaultErrorMessage } from '../messages';
import { CameraScanner } from './CameraScanner';
import { ManualForm, type FormProblem } from './ManualForm';
import { UploadQr } from './UploadQr';

export type AddTab = 'camera' | 'upload' | 'manual';

interface AddAccountDialogProps {
  userId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Add Account (SPEC §2, §5): tabs Camera, Upload, Manual (the default). */
export function AddAccountDialog({ userId, open, onOpenChange }: AddAccountDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Add Account</DialogTitle>
          <DialogDescription>Scan the QR code a site shows when you turn on two-factor authentication, or type its setup key.</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open: closing resets the form and stops the camera. */}
        {open && <AddAccountBody userId={userId} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function AddAccountBody({ userId, onDone }: { userId: string; onDone: () => void }) {
  const [tab, setTab] = useState<AddTab>('manual');
  const [form, setForm] = useState<AccountForm>(EMPTY_FORM);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const add = useAddAccount(userId);

  function fill(account: OtpAccount) {
    const next = accountToForm(account);
    setForm(next);
    setAdvancedOpen(hasAdvancedSettings(next));
    setProblem(null);
    setTab('manual');
  }

  function change(next: AccountForm) {
    setForm(next);
    setProblem(null);
  }

  function submit() {
    const checked = checkForm(form);
    if (!checked.ok) {
      setProblem({ field: checked.field, message: checked.message });
      return;
    }
    // Sent as the shared rules normalised it (secret upper case, no spaces; numbers as numbers).
    add.mutate(checked.account, {
      onSuccess: (added) => {
        toast({ title: 'Account Added', description: `${accountLabel(added)} is now in your authenticator.` });
        onDone();
      },
      onError: (error) => {
        if (handledAsSessionExpiry(error)) return;
        const message = vaultErrorMessage(error, 'Failed to add the account. Please try again.');
        setProblem({ field: null, message });
        toast({ variant: 'destructive', title: 'Error Adding Account', description: message });
      },
    });
  }

  return (
    <Tabs value={tab} onValueChange={(value) => setTab(value as AddTab)} className="min-w-0 gap-4">
      <TabsList className="w-full" aria-label="How to add the account">
        <TabsTrigger value="camera">
          <Camera aria-hidden="true" />
          Camera
        </TabsTrigger>
        <TabsTrigger value="upload">
          <ImageUp aria-hidden="true" />
          Upload
        </TabsTrigger>
        <TabsTrigger value="manual">
          <Keyboard aria-hidden="true" />
          Manual
        </TabsTrigger>
      </TabsList>
      <TabsContent value="camera">
        <CameraScanner
          onDetected={(account) => {
            fill(account);
            toast(QR_DETECTED);
          }}
        />
      </TabsContent>
      <TabsContent value="upload">
        <UploadQr onScanned={fill} />
      </TabsContent>
      <TabsContent value="manual">
        <ManualForm
          form={form}
          onChange={change}
          advancedOpen={advancedOpen}
          onAdvancedOpenChange={setAdvancedOpen}
          problem={problem}
          pending={add.isPending}
          onSubmit={submit}
        />
      </TabsContent>
    </Tabs>
  );
}
