import { useId } from 'react';
import { Download, Printer } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/features/business/components/CopyButton';
import { useCopy } from '@/lib/use-copy';
import type { TotpSetupResult } from '../api';

export const BACKUP_CODES_FILE = 'sixdigit-backup-codes.txt';

/** The backup codes as a small text file to keep. */
export function backupCodesText(codes: string[], email: string): string {
  return [
    'Sixdigit account TOTP — backup codes',
    `Account: ${email}`,
    '',
    'Each code works once, in place of a code from your authenticator app, when you sign in.',
    '',
    ...codes,
    '',
  ].join('\n');
}

function download(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Prints only the codes: a small window of its own, so the rest of the page stays off the paper. */
function printCodes(codes: string[], email: string) {
  const win = window.open('', '_blank', 'width=480,height=640');
  if (!win) return;
  win.document.write(
    `<!doctype html><title>Sixdigit backup codes</title><body style="font-family:system-ui,sans-serif;padding:24px">` +
      `<h1 style="font-size:18px">Sixdigit backup codes</h1><p>Account: ${escapeHtml(email)}</p>` +
      `<p>Each code works once, in place of a code from your authenticator app.</p>` +
      `<ol style="font-family:ui-monospace,monospace;font-size:16px;line-height:1.8">${codes.map((c) => `<li>${escapeHtml(c)}</li>`).join('')}</ol></body>`,
  );
  win.document.close();
  win.focus();
  win.print();
}

/** Step 1: the QR code and the key to type, shown only right after setup (the secret is shown once). */
export function ScanPanel({ result, email }: { result: TotpSetupResult; email: string }) {
  const { copied, copy } = useCopy();
  return (
    <div className="grid gap-6 md:grid-cols-[auto_minmax(0,1fr)]" data-testid="totp-setup-reveal">
      <figure className="mx-auto space-y-2 text-center md:mx-0">
        {/* White padding: the code must stay dark-on-light for cameras, also in dark mode. */}
        <img src={result.qrCode} alt="QR code for your Sixdigit account TOTP" width={200} height={200} className="size-[200px] rounded-lg border bg-white p-2" />
        <figcaption className="text-xs text-muted-foreground">Scan with Google Authenticator, Authy, 1Password…</figcaption>
      </figure>
      <div className="min-w-0 space-y-2">
        <h4 className="text-sm font-medium">Can&apos;t scan? Enter this key</h4>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <code className="min-w-0 flex-1 rounded-md border bg-background px-3 py-2 font-mono text-sm break-all select-all">{result.manualEntry}</code>
          <CopyButton
            label="Copy secret key"
            copied={copied === 'secret'}
            onCopy={() => void copy('secret', result.secret, { title: 'Copied!', description: 'Secret key copied to clipboard.' })}
          />
        </div>
        <p className="text-xs text-muted-foreground">
          Account <span className="font-medium text-foreground">{email}</span> · issuer Sixdigit · time-based, {result.digits} digits, every {result.period} seconds ({result.algorithm})
        </p>
      </div>
    </div>
  );
}

/** The backup codes, shown once: copy, download as a text file, or print. */
export function BackupCodesPanel({ codes, email }: { codes: string[]; email: string }) {
  const titleId = useId();
  const { copied, copy } = useCopy();
  return (
    <div className="space-y-2" role="group" aria-labelledby={titleId} data-testid="backup-codes">
      <h4 id={titleId} className="text-sm font-medium">
        Backup codes
      </h4>
      <p className="text-xs text-muted-foreground">If you lose your phone, each of these codes works once instead of a code from your app.</p>
      <ol className="grid grid-cols-2 gap-2 rounded-md border bg-background p-3 font-mono text-sm sm:grid-cols-5">
        {codes.map((code) => (
          <li key={code} className="text-center tabular-nums">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={() => download(BACKUP_CODES_FILE, backupCodesText(codes, email))}>
          <Download aria-hidden="true" />
          Download .txt
        </Button>
        <CopyButton label="Copy backup codes" copied={copied === 'codes'} onCopy={() => void copy('codes', codes.join('\n'), { title: 'Copied!', description: 'Backup codes copied to clipboard.' })} />
        <Button type="button" variant="outline" size="sm" onClick={() => printCodes(codes, email)}>
          <Printer aria-hidden="true" />
          Print
        </Button>
      </div>
    </div>
  );
}
