import { useEffect, useMemo, useState } from 'react';
import { ChevronLeft, ChevronRight, Download, FileText, QrCode, ShieldAlert } from 'lucide-react';
import QRCode from 'qrcode';
import { toMigrationUris, toUriList, type OtpAccount } from '@common/otpauth';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';

/**
 * Accounts per QR code. Google Authenticator puts up to 10 in one; 5 keeps each code sparse
 * enough for a phone camera to read off a laptop screen.
 */
export const ACCOUNTS_PER_QR = 5;

interface ExportDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  accounts: OtpAccount[];
}

/** "sixdigit-authenticator-2025-03-01.txt" */
export function exportFileName(now = new Date()): string {
  const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return `sixdigit-authenticator-${day}.txt`;
}

/** Saves text as a file through a temporary link; the object URL is released right after. */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Export (issue 5, item 4): an otpauth:// list (.txt) and Google-Authenticator-compatible
 * migration QR codes, both made on this device. Both hold the secrets, and the dialog says so.
 */
export function ExportDialog({ open, onOpenChange, accounts }: ExportDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Export accounts</DialogTitle>
          <DialogDescription>
            Move your {accounts.length} account{accounts.length === 1 ? '' : 's'} to another authenticator app, or keep a backup.
          </DialogDescription>
        </DialogHeader>
        {open && <ExportBody accounts={accounts} />}
      </DialogContent>
    </Dialog>
  );
}

function ExportBody({ accounts }: { accounts: OtpAccount[] }) {
  const [tab, setTab] = useState('file');
  return (
    <div className="min-w-0 space-y-4">
      <div role="note" className="flex gap-3 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm">
        <ShieldAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
        <p>
          <strong className="font-semibold">This export contains your secret keys.</strong> Anyone who gets the file or sees
          these QR codes can generate your codes. Keep it private, and delete the file once you have imported it.
        </p>
      </div>
      <Tabs value={tab} onValueChange={setTab} className="min-w-0 gap-4">
        <TabsList className="w-full" aria-label="Export as">
          <TabsTrigger value="file">
            <FileText aria-hidden="true" />
            Text file
          </TabsTrigger>
          <TabsTrigger value="qr">
            <QrCode aria-hidden="true" />
            QR codes
          </TabsTrigger>
        </TabsList>
        <TabsContent value="file" className="space-y-3">
          <p className="text-sm text-muted-foreground">
            One otpauth:// link per line. Aegis, 2FAS, Bitwarden, Sixdigit and most authenticator apps can import it.
          </p>
          <Button
            type="button"
            className="w-full sm:w-auto"
            onClick={() => {
              downloadText(exportFileName(), toUriList(accounts));
              toast({ title: 'Export Downloaded', description: `${accounts.length} account${accounts.length === 1 ? '' : 's'} saved as a text file.` });
            }}
          >
            <Download aria-hidden="true" />
            Download .txt
          </Button>
        </TabsContent>
        <TabsContent value="qr">
          <MigrationQrCodes accounts={accounts} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

function MigrationQrCodes({ accounts }: { accounts: OtpAccount[] }) {
  const { uris, skipped } = useMemo(() => toMigrationUris(accounts, { batchSize: ACCOUNTS_PER_QR }), [accounts]);
  const [revealed, setRevealed] = useState(false);
  const [page, setPage] = useState(0);
  const [images, setImages] = useState<string[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!revealed) return;
    let live = true;
    Promise.all(uris.map((uri) => QRCode.toDataURL(uri, { width: 480, margin: 2, errorCorrectionLevel: 'M' })))
      .then((rendered) => live && setImages(rendered))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [revealed, uris]);

  const total = uris.length;
  const current = Math.min(page, Math.max(0, total - 1));

  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground">
        In Google Authenticator, open <span className="font-medium text-foreground">Transfer accounts → Import accounts</span> and
        scan {total > 1 ? 'each code in turn' : 'the code'}. Other apps that read Google exports (Aegis, 2FAS…) work too.
      </p>
      {total === 0 ? (
        <p className="text-sm">None of your accounts can be exported this way.</p>
      ) : !revealed ? (
        <Button type="button" variant="outline" onClick={() => setRevealed(true)}>
          <QrCode aria-hidden="true" />
          Show {total} QR code{total === 1 ? '' : 's'}
        </Button>
      ) : failed ? (
        <p role="alert" className="text-sm text-destructive">
          The QR codes could not be drawn. Use the text file instead.
        </p>
      ) : !images ? (
        <div className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
          <Spinner label="Drawing QR codes" />
          Drawing QR codes…
        </div>
      ) : (
        <figure className="flex flex-col items-center gap-3">
          <img
            src={images[current]}
            alt={`Google Authenticator export, QR ${current + 1} of ${total}`}
            className="aspect-square w-full max-w-72 rounded-md border bg-white p-1 sm:max-w-80"
          />
          <figcaption className="text-sm font-medium" aria-live="polite">
            QR {current + 1} of {total}
          </figcaption>
          {total > 1 && (
            <div className="flex gap-2">
              <Button type="button" variant="outline" size="sm" onClick={() => setPage(current - 1)} disabled={current === 0}>
                <ChevronLeft aria-hidden="true" />
                Previous
              </Button>
              <Button type="button" variant="outline" size="sm" onClick={() => setPage(current + 1)} disabled={current >= total - 1}>
                Next
                <ChevronRight aria-hidden="true" />
              </Button>
            </div>
          )}
        </figure>
      )}
      {skipped.length > 0 && (
        <div className="space-y-1 text-sm">
          <p className="font-medium">
            {skipped.length} account{skipped.length === 1 ? ' is' : 's are'} not in the QR codes (use the text file for {skipped.length === 1 ? 'it' : 'them'}):
          </p>
          <ul className="max-h-32 list-disc space-y-0.5 overflow-y-auto pl-5 text-muted-foreground">
            {skipped.map((entry, i) => (
              <li key={`${entry.label}-${i}`}>
                {entry.label} — {entry.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
