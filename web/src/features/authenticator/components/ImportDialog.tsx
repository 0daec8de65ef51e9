import { useId, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { CircleCheck, ClipboardPaste, FileUp, ImageUp, KeyRound, TriangleAlert } from 'lucide-react';
import { OtpauthError, accountLabel, importAny, type ImportResult } from '@common/otpauth';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import {
  ImportError,
  QR_IMAGE_TYPES,
  handledAsSessionExpiry,
  scanQrImage,
  useImportAccounts,
  type AuthenticatorAccount,
  type ImportOutcome,
  type ImportProgress,
} from '../api';
import { initialOf } from '../form';
import { buildPreview, mergeImageScans, settingsOf, type ImageScan, type ImportPreview } from '../import-preview';
import { scanFailed, vaultErrorMessage } from '../messages';
import { imageProblem } from './UploadQr';

type Source = 'file' | 'paste' | 'images';

type Stage =
  | { kind: 'choose'; error?: string }
  | { kind: 'reading'; what: string; progress?: ImportProgress }
  | { kind: 'password'; text: string; name: string; error?: string }
  | { kind: 'preview'; preview: ImportPreview; name: string }
  | { kind: 'importing'; progress: ImportProgress }
  | { kind: 'done'; outcome: ImportOutcome; error?: string };

interface ImportDialogProps {
  userId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  existing: AuthenticatorAccount[];
}

/**
 * Import (issue 5, item 4): Aegis, 2FAS, Bitwarden JSON, lists of otpauth:// links, Google
 * Authenticator export links and export QR images. Nothing is sent until the preview — what will
 * be added, what is skipped and why — is confirmed.
 */
export function ImportDialog({ userId, open, onOpenChange, existing }: ImportDialogProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent className="sm:max-w-xl" onInteractOutside={(event) => busy && event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>Import accounts</DialogTitle>
          <DialogDescription>
            From a backup of another authenticator app, a list of otpauth:// links, or Google Authenticator&apos;s export QR codes.
          </DialogDescription>
        </DialogHeader>
        {open && <ImportBody userId={userId} existing={existing} onBusyChange={setBusy} onClose={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

const textareaClass =
  'flex min-h-36 w-full min-w-0 rounded-md border border-input bg-transparent px-3 py-2 font-mono text-xs shadow-xs outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40';

const FORMAT_NAMES: Record<string, string> = {
  otpauth: 'otpauth:// links',
  aegis: 'Aegis vault',
  '2fas': '2FAS backup',
  bitwarden: 'Bitwarden export',
};

interface ImportBodyProps {
  userId: string;
  existing: AuthenticatorAccount[];
  onBusyChange: (busy: boolean) => void;
  onClose: () => void;
}

function ImportBody({ userId, existing, onBusyChange, onClose }: ImportBodyProps) {
  const id = useId();
  const [source, setSource] = useState<Source>('file');
  const [pasted, setPasted] = useState('');
  const [stage, setStageRaw] = useState<Stage>({ kind: 'choose' });
  const importAccounts = useImportAccounts(userId);

  function setStage(next: Stage) {
    setStageRaw(next);
    onBusyChange(next.kind === 'reading' || next.kind === 'importing');
  }

  function showPreview(result: ImportResult, name: string) {
    setStage({ kind: 'preview', preview: buildPreview(result, existing), name });
  }

  async function readText(text: string, name: string, password?: string) {
    setStage({ kind: 'reading', what: password === undefined ? 'Reading…' : 'Decrypting…' });
    try {
      const result = await importAny(text, password === undefined ? {} : { password });
      showPreview(result, `${name} (${FORMAT_NAMES[result.format] ?? result.format})`);
    } catch (error) {
      if (error instanceof OtpauthError && (error.code === 'password_required' || error.code === 'wrong_password')) {
        setStage({ kind: 'password', text, name, error: error.code === 'wrong_password' ? error.message : undefined });
        return;
      }
      setStage({ kind: 'choose', error: error instanceof OtpauthError ? error.message : 'This could not be read.' });
    }
  }

  async function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > 5 * 1024 * 1024) {
      setStage({ kind: 'choose', error: 'The file is larger than 5 MB: that is not an authenticator backup.' });
      return;
    }
    await readText(await file.text(), file.name);
  }

  async function chooseImages(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (files.length === 0) return;
    const scans: ImageScan[] = [];
    for (const [i, file] of files.entries()) {
      setStage({ kind: 'reading', what: files.length > 1 ? `Reading image ${i + 1} of ${files.length}…` : 'Reading the image…', progress: { done: i, total: files.length } });
      const problem = imageProblem(file);
      if (problem) {
        scans.push({ name: file.name, error: problem });
        continue;
      }
      try {
        scans.push({ name: file.name, result: await scanQrImage(file) });
      } catch (error) {
        const message = scanFailed(error);
        scans.push({ name: file.name, error: String(message.description ?? message.title) });
      }
    }
    const merged = mergeImageScans(scans);
    if (merged.accounts.length === 0 && scans.every((scan) => !scan.result)) {
      setStage({ kind: 'choose', error: scans.length === 1 ? scans[0]!.error : 'None of the images holds a QR code that could be read.' });
      return;
    }
    showPreview(merged, files.length > 1 ? `${files.length} images` : files[0]!.name);
  }

  function unlock(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (stage.kind !== 'password') return;
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    void readText(stage.text, stage.name, password);
  }

  function confirm(preview: ImportPreview) {
    const total = preview.accounts.length;
    setStage({ kind: 'importing', progress: { done: 0, total } });
    importAccounts.mutate(
      { accounts: preview.accounts, onProgress: (progress) => setStage({ kind: 'importing', progress }) },
      {
        onSuccess: (outcome) => {
          const skipped = [...preview.skipped, ...outcome.skipped];
          setStage({ kind: 'done', outcome: { added: outcome.added, skipped } });
          toast({
            title: 'Accounts Imported',
            description: `${outcome.added.length} added${skipped.length ? `, ${skipped.length} skipped` : ''}.`,
          });
        },
        onError: (error) => {
          const partial = error instanceof ImportError ? error.partial : { added: [], skipped: [] };
          if (handledAsSessionExpiry(error)) {
            setStage({ kind: 'done', outcome: partial, error: 'Your session has expired.' });
            return;
          }
          const cause = error instanceof ImportError ? error.cause : error;
          const message = vaultErrorMessage(cause, 'The import could not be completed. Please try again.');
          setStage({ kind: 'done', outcome: partial, error: message });
          toast({ variant: 'destructive', title: 'Import Failed', description: message });
        },
      },
    );
  }

  if (stage.kind === 'reading') {
    return (
      <div className="flex flex-col items-center gap-3 py-10" role="status" aria-live="polite">
        <Spinner label={stage.what} className="size-8 text-primary" />
        <p className="text-sm text-muted-foreground">{stage.what}</p>
        {stage.progress && stage.progress.total > 1 && (
          <Progress value={(stage.progress.done / stage.progress.total) * 100} aria-label="Images read" className="max-w-xs" />
        )}
      </div>
    );
  }

  if (stage.kind === 'password') {
    return (
      <form onSubmit={unlock} className="space-y-4">
        <div className="flex gap-3 rounded-md border bg-muted/50 p-3 text-sm">
          <KeyRound className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
          <p>
            <strong className="font-medium">{stage.name}</strong> is encrypted. Enter the password you chose when you exported it.
            It is used on this device only.
          </p>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-password`}>Backup password</Label>
          <Input
            id={`${id}-password`}
            name="password"
            type="password"
            autoComplete="off"
            autoFocus
            aria-invalid={Boolean(stage.error) || undefined}
            aria-describedby={stage.error ? `${id}-password-error` : undefined}
          />
          {stage.error && (
            <p id={`${id}-password-error`} className="text-sm text-destructive">
              {stage.error}
            </p>
          )}
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => setStage({ kind: 'choose' })}>
            Back
          </Button>
          <Button type="submit">Unlock</Button>
        </DialogFooter>
      </form>
    );
  }

  if (stage.kind === 'preview') {
    return <PreviewStep preview={stage.preview} name={stage.name} onBack={() => setStage({ kind: 'choose' })} onConfirm={() => confirm(stage.preview)} />;
  }

  if (stage.kind === 'importing') {
    const { done, total } = stage.progress;
    return (
      <div className="space-y-3 py-6" role="status" aria-live="polite">
        <p className="text-sm font-medium">
          Importing {done} of {total} account{total === 1 ? '' : 's'}…
        </p>
        <Progress value={total ? (done / total) * 100 : 0} aria-label="Import progress" />
        <p className="text-xs text-muted-foreground">Keep this window open until the import finishes.</p>
      </div>
    );
  }

  if (stage.kind === 'done') {
    return <DoneStep outcome={stage.outcome} error={stage.error} onClose={onClose} />;
  }

  return (
    <div className="min-w-0 space-y-4">
      {stage.error && (
        <p role="alert" className="flex gap-2 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {stage.error}
        </p>
      )}
      <Tabs value={source} onValueChange={(value) => setSource(value as Source)} className="min-w-0 gap-4">
        <TabsList className="w-full" aria-label="Import from">
          <TabsTrigger value="file">
            <FileUp aria-hidden="true" />
            File
          </TabsTrigger>
          <TabsTrigger value="paste">
            <ClipboardPaste aria-hidden="true" />
            Paste
          </TabsTrigger>
          <TabsTrigger value="images">
            <ImageUp aria-hidden="true" />
            QR images
          </TabsTrigger>
        </TabsList>
        <TabsContent value="file" className="space-y-3">
          <DropZone
            id={`${id}-file`}
            icon={<FileUp className="size-8 text-muted-foreground" aria-hidden="true" />}
            title="Choose a backup file"
            hint="Aegis (.json), 2FAS (.2fas), Bitwarden (.json) or a text file of otpauth:// links. Encrypted Aegis and 2FAS backups ask for their password."
            accept=".json,.2fas,.txt,application/json,text/plain"
            onChange={(event) => void chooseFile(event)}
          />
          <p className="text-xs text-muted-foreground">The file is read on this device; only the accounts you confirm are sent.</p>
        </TabsContent>
        <TabsContent value="paste" className="space-y-3">
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-paste`}>otpauth:// or otpauth-migration:// links, one per line</Label>
            <textarea
              id={`${id}-paste`}
              className={textareaClass}
              value={pasted}
              onChange={(event) => setPasted(event.target.value)}
              placeholder={'otpauth://totp/GitHub:you@example.com?secret=…&issuer=GitHub\notpauth-migration://offline?data=…'}
              spellCheck={false}
              autoComplete="off"
            />
            <p className="text-xs text-muted-foreground">A backup file&apos;s JSON can be pasted here too.</p>
          </div>
          <div className="flex justify-end">
            <Button type="button" disabled={!pasted.trim()} onClick={() => void readText(pasted, 'Pasted text')}>
              Preview
            </Button>
          </div>
        </TabsContent>
        <TabsContent value="images" className="space-y-3">
          <DropZone
            id={`${id}-images`}
            icon={<ImageUp className="size-8 text-muted-foreground" aria-hidden="true" />}
            title="Choose export QR images"
            hint="In Google Authenticator: Transfer accounts → Export accounts, then screenshot each QR code. Select every screenshot at once (PNG, JPEG or WebP)."
            accept={QR_IMAGE_TYPES.join(',')}
            multiple
            onChange={(event) => void chooseImages(event)}
          />
          <p className="text-xs text-muted-foreground">The images are read on this device and never sent anywhere.</p>
        </TabsContent>
      </Tabs>
    </div>
  );
}

interface DropZoneProps {
  id: string;
  icon: ReactNode;
  title: string;
  hint: string;
  accept: string;
  multiple?: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

function DropZone({ id, icon, title, hint, accept, multiple, onChange }: DropZoneProps) {
  return (
    <label
      htmlFor={id}
      className="flex min-h-40 cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed p-6 text-center transition-colors hover:border-primary/60 hover:bg-accent/40 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
    >
      {icon}
      <span className="font-medium">{title}</span>
      <span className="text-sm text-muted-foreground">{hint}</span>
      <input id={id} type="file" accept={accept} multiple={multiple} className="sr-only" onChange={onChange} />
    </label>
  );
}

function SkippedList({ skipped }: { skipped: ImportPreview['skipped'] }) {
  return (
    <ul className="max-h-48 divide-y overflow-y-auto rounded-md border text-sm" aria-label="Skipped">
      {skipped.map((entry, i) => (
        <li key={`${entry.label}-${i}`} className="px-3 py-2">
          <span className="font-medium break-words">{entry.label}</span>
          <span className="text-muted-foreground"> — {entry.reason}</span>
        </li>
      ))}
    </ul>
  );
}

interface PreviewStepProps {
  preview: ImportPreview;
  name: string;
  onBack: () => void;
  onConfirm: () => void;
}

function PreviewStep({ preview, name, onBack, onConfirm }: PreviewStepProps) {
  const count = preview.accounts.length;
  return (
    <div className="min-w-0 space-y-4">
      <p className="text-sm text-muted-foreground">
        From <span className="font-medium text-foreground">{name}</span>
      </p>
      <section className="space-y-2" aria-labelledby="import-add-heading">
        <h3 id="import-add-heading" className="flex items-center gap-2 text-sm font-semibold">
          <CircleCheck className="size-4 text-success" aria-hidden="true" />
          {count === 0 ? 'Nothing new to add' : `${count} account${count === 1 ? '' : 's'} will be added`}
        </h3>
        {count > 0 && (
          <ul className="max-h-60 divide-y overflow-y-auto rounded-md border" aria-label="Will be added">
            {preview.accounts.map((account, i) => (
              <li key={i} className="flex items-center gap-3 px-3 py-2">
                <span
                  aria-hidden="true"
                  className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary/10 text-xs font-semibold text-primary"
                >
                  {initialOf(account)}
                </span>
                <span className="min-w-0 flex-1 truncate text-sm" title={accountLabel(account)}>
                  {accountLabel(account)}
                </span>
                {settingsOf(account).map((setting) => (
                  <Badge key={setting} variant="secondary" className="hidden sm:inline-flex">
                    {setting}
                  </Badge>
                ))}
              </li>
            ))}
          </ul>
        )}
      </section>
      {preview.skipped.length > 0 && (
        <section className="space-y-2" aria-labelledby="import-skip-heading">
          <h3 id="import-skip-heading" className="flex items-center gap-2 text-sm font-semibold">
            <TriangleAlert className="size-4 text-warning" aria-hidden="true" />
            {preview.skipped.length} skipped
          </h3>
          <SkippedList skipped={preview.skipped} />
        </section>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onBack}>
          Back
        </Button>
        <Button type="button" onClick={onConfirm} disabled={count === 0}>
          {count === 0 ? 'Nothing to import' : `Import ${count} account${count === 1 ? '' : 's'}`}
        </Button>
      </DialogFooter>
    </div>
  );
}

function DoneStep({ outcome, error, onClose }: { outcome: ImportOutcome; error?: string; onClose: () => void }) {
  const added = outcome.added.length;
  return (
    <div className="min-w-0 space-y-4">
      {error ? (
        <div role="alert" className="space-y-1 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm">
          <p className="font-medium text-destructive">The import stopped: {error}</p>
          <p>{added > 0 ? `${added} account${added === 1 ? ' was' : 's were'} added before it stopped.` : 'No accounts were added.'}</p>
        </div>
      ) : (
        <p className="flex items-center gap-2 text-sm font-medium">
          <CircleCheck className="size-4 text-success" aria-hidden="true" />
          {added} account{added === 1 ? '' : 's'} added.
        </p>
      )}
      {outcome.skipped.length > 0 && (
        <section className="space-y-2">
          <h3 className="text-sm font-semibold">{outcome.skipped.length} skipped</h3>
          <SkippedList skipped={outcome.skipped} />
        </section>
      )}
      <DialogFooter>
        <Button type="button" onClick={onClose}>
          Done
        </Button>
      </DialogFooter>
    </div>
  );
}
