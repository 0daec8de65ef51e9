import { useId, type ChangeEvent } from 'react';
import { ImageUp } from 'lucide-react';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/utils';
import { MAX_QR_IMAGE_BYTES, QR_IMAGE_TYPES, useScanQrImage, type ScanResult } from '../api';
import { QR_SCANNED, scanFailed } from '../messages';

interface UploadQrProps {
  onScanned: (result: ScanResult) => void;
}

/** Problems found before reading: not an image this page reads, or far too large for one. */
export function imageProblem(file: File): string | null {
  if (!(QR_IMAGE_TYPES as readonly string[]).includes(file.type)) return 'Upload a PNG, JPEG or WebP image.';
  if (file.size > MAX_QR_IMAGE_BYTES) return `The image is larger than ${MAX_QR_IMAGE_BYTES / 1024 / 1024} MB.`;
  return null;
}

/** Upload tab: a screenshot or photo of a QR code, read on this device (the image is never sent). */
export function UploadQr({ onScanned }: UploadQrProps) {
  const id = useId();
  const scan = useScanQrImage();

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = imageProblem(file);
    if (problem) {
      toast({ variant: 'destructive', title: 'QR Scan Failed', description: problem });
      return;
    }
    scan.mutate(file, {
      onSuccess: (result) => {
        onScanned(result);
        toast(
          result.accounts.length > 1
            ? { ...QR_SCANNED, description: `This image holds ${result.accounts.length} accounts; the first is filled in. Use Import to add them all.` }
            : QR_SCANNED,
        );
      },
      onError: (error) => toast(scanFailed(error)),
    });
  }

  return (
    <div className="space-y-3">
      <label
        htmlFor={id}
        className={cn(
          'flex min-h-48 cursor-pointer flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed p-6 text-center transition-colors',
          'hover:border-primary/60 hover:bg-accent/40 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
          scan.isPending && 'pointer-events-none opacity-70',
        )}
      >
        {scan.isPending ? (
          <Spinner label="Reading the QR code" className="size-8 text-primary" />
        ) : (
          <ImageUp className="size-8 text-muted-foreground" aria-hidden="true" />
        )}
        <span className="font-medium">{scan.isPending ? 'Reading the QR code…' : 'Choose an image of a QR code'}</span>
        <span className="text-sm text-muted-foreground">PNG, JPEG or WebP, up to 15 MB. A screenshot of the setup page works.</span>
        <input
          id={id}
          type="file"
          accept={QR_IMAGE_TYPES.join(',')}
          className="sr-only"
          onChange={choose}
          disabled={scan.isPending}
        />
      </label>
      <p className="text-xs text-muted-foreground">The image is read on this device and never sent anywhere.</p>
    </div>
  );
}
