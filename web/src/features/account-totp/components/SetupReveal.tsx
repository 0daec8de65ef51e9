import { useId } from 'react';
import { Download, KeyRound, TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/features/business/components/CopyButton';
import { useCopy } from '@/lib/use-copy';
import { useRevealFocus } from '@/lib/use-reveal-focus';
import type { TotpSetupResult } from '../api';

export const BACKUP_CODES_FILE = 'sixdigit-backup-codes.txt';

/** The backup codes as a small text file to keep. */
export function backupCodesText(codes: string[], email: string): string {
  return [
    'Sixdigit account TOTP — backup codes',
    `Account: ${email}`,
    '',
    'Each code works once, in place of a code from your authenticator app.',
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

/**
 * Right after setup: the QR code, the secret and the 10 backup codes. Shown once — it lives only
 * in page state, and "I've saved them" or leaving the page forgets it.
 */
export function SetupReveal({ result, email, onDismiss }: { result: TotpSetupResult; email: string; onDismiss: () => void }) {
  const titleId = useId();
  const codesTitleId = useId();
  const { copied, copy } = useCopy();
  const ref = useRevealFocus<HTMLElement>(result.secret);

  return (
    <section
      ref={ref}
      tabIndex={-1}
      aria-labelledby={titleId}
      className="scroll-mt-20 space-y-6 rounded-xl border-2 border-warning bg-warning/10 p-4 shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-ring sm:p-6"
      data-testid="totp-setup-reveal"
    >
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-warning/20 text-warning-foreground">
          <KeyRound className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <h2 id={titleId} className="text-lg font-semibold">
            Add Sixdigit to your authenticator app
          </h2>
          <p className="mt-1 flex items-start gap-1.5 text-sm font-medium">
            <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
            <span>The QR code, secret and backup codes are shown only now. Save the backup codes before you leave this page.</span>
          </p>
        </div>
      </div>

      <div className="grid gap-6 md:grid-cols-[auto_minmax(0,1fr)]">
        <figure className="mx-auto space-y-2 text-center md:mx-0">
          {/* White padding: the code must stay dark-on-light for cameras, also in dark mode. */}
          <img
            src={result.qrCode}
            alt="QR code for your Sixdigit account TOTP"
            width={200}
            height={200}
            className="size-[200px] rounded-lg border bg-white p-2"
          />
          <figcaption className="text-xs text-muted-foreground">Scan with Google Authenticator, Authy, 1Password…</figcaption>
        </figure>

        <div className="min-w-0 space-y-4">
          <div className="space-y-2">
            <h3 className="text-sm font-medium">Can&apos;t scan? Enter this key</h3>
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
              <code className="min-w-0 flex-1 rounded-md border bg-background px-3 py-2 font-mono text-sm break-all select-all">
                {result.manualEntry}
              </code>
              <CopyButton
                label="Copy secret key"
                copied={copied === 'secret'}
                onCopy={() => void copy('secret', result.secret, { title: 'Copied!', description: 'Secret key copied to clipboard.' })}
              />
            </div>
            <p className="text-xs text-muted-foreground">
              Account <span className="font-medium text-foreground">{email}</span> · issuer Sixdigit · time-based,{' '}
              {result.digits} digits, every {result.period} seconds ({result.algorithm})
            </p>
          </div>

          <div className="space-y-2" role="group" aria-labelledby={codesTitleId}>
            <h3 id={codesTitleId} className="text-sm font-medium">
              Backup codes
            </h3>
            <p className="text-xs text-muted-foreground">
              If you lose your phone, each of these codes works once instead of an authenticator code.
            </p>
            <ol className="grid grid-cols-2 gap-2 rounded-md border bg-background p-3 font-mono text-sm sm:grid-cols-5 md:grid-cols-2 lg:grid-cols-5">
              {result.backupCodes.map((code) => (
                <li key={code} className="text-center tabular-nums">
                  {code}
                </li>
              ))}
            </ol>
            <div className="flex flex-wrap gap-2">
              <CopyButton
                label="Copy backup codes"
                copied={copied === 'codes'}
                onCopy={() =>
                  void copy('codes', result.backupCodes.join('\n'), { title: 'Copied!', description: 'Backup codes copied to clipboard.' })
                }
              />
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => download(BACKUP_CODES_FILE, backupCodesText(result.backupCodes, email))}
              >
                <Download aria-hidden="true" />
                Download
              </Button>
            </div>
          </div>
        </div>
      </div>

      <Button type="button" variant="outline" onClick={onDismiss}>
        I&apos;ve saved my backup codes — hide them
      </Button>
    </section>
  );
}
