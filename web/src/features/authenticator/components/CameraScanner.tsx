import { useEffect, useRef, useState } from 'react';
import { CameraOff, ScanLine, TriangleAlert } from 'lucide-react';
import { parseOtpauthUri, type OtpAccount } from '@common/otpauth';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { CAMERA_ACCESS_FAILED, INVALID_QR } from '../messages';

/** Frames decoded per second at most (qr-scanner's own default is 5). */
export const MAX_SCANS_PER_SECOND = 25;
/** Longest side a frame is scaled down to before decoding. */
const MAX_DECODE_SIDE = 800;

/**
 * The whole frame, not qr-scanner's default centre square (2/3 of the short side): a QR code held
 * close to the camera fills the picture and would be cut off by the smaller region.
 */
function wholeFrame(video: HTMLVideoElement) {
  const width = video.videoWidth;
  const height = video.videoHeight;
  const scale = Math.min(1, MAX_DECODE_SIDE / Math.max(width, height, 1));
  return { x: 0, y: 0, width, height, downScaledWidth: Math.round(width * scale), downScaledHeight: Math.round(height * scale) };
}

type Status = 'starting' | 'scanning' | 'invalid' | 'migration' | 'failed';

interface CameraScannerProps {
  /** A valid otpauth:// QR code was read; the camera has already been stopped. */
  onDetected: (account: OtpAccount) => void;
}

/**
 * Live QR scan (SPEC §4): the camera starts when this mounts (the Camera tab opens) and stops
 * on success, or when it unmounts (tab change, dialog closed). qr-scanner is loaded only here.
 */
export function CameraScanner({ onDetected }: CameraScannerProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [status, setStatus] = useState<Status>('starting');
  const [attempt, setAttempt] = useState(0);
  const onDetectedRef = useRef(onDetected);
  useEffect(() => {
    onDetectedRef.current = onDetected;
  });

  useEffect(() => {
    let cancelled = false;
    let scanner: import('qr-scanner').default | null = null;
    let lastInvalid: string | null = null;
    const stop = () => {
      if (!scanner) return;
      // pause(true) releases the camera at once; destroy() also ends the decoding worker.
      void scanner.pause(true);
      scanner.destroy();
      scanner = null;
    };

    import('qr-scanner')
      .then(({ default: QrScanner }) => {
        const video = videoRef.current;
        if (cancelled || !video) return;
        scanner = new QrScanner(
          video,
          (result) => {
            if (cancelled) return;
            let account: OtpAccount;
            try {
              account = parseOtpauthUri(result.data);
            } catch {
              // Keep scanning; say so once per different code, not 25 times a second.
              if (result.data !== lastInvalid) {
                lastInvalid = result.data;
                setStatus(/^otpauth-migration:/i.test(result.data.trim()) ? 'migration' : 'invalid');
                toast(INVALID_QR);
              }
              return;
            }
            cancelled = true;
            stop();
            onDetectedRef.current(account);
          },
          {
            maxScansPerSecond: MAX_SCANS_PER_SECOND,
            preferredCamera: 'environment',
            calculateScanRegion: wholeFrame,
            returnDetailedScanResult: true,
          },
        );
        return scanner.start().then(() => {
          if (!cancelled) setStatus('scanning');
        });
      })
      .catch(() => {
        if (cancelled) return;
        stop();
        setStatus('failed');
        toast(CAMERA_ACCESS_FAILED);
      });

    return () => {
      cancelled = true;
      stop();
    };
  }, [attempt]);

  return (
    <div className="space-y-3">
      <div className="relative aspect-square w-full overflow-hidden rounded-lg bg-black sm:aspect-[4/3]">
        <video ref={videoRef} className="size-full object-cover" muted playsInline aria-label="Camera preview" />
        {status !== 'failed' && (
          <div aria-hidden="true" className="pointer-events-none absolute inset-0 flex items-center justify-center">
            <div className="size-3/5 max-w-64 rounded-xl border-2 border-white/80 shadow-[0_0_0_9999px_rgba(0,0,0,0.35)]" />
          </div>
        )}
        {status === 'starting' && (
          <div className="absolute inset-0 flex items-center justify-center">
            <Spinner label="Starting camera" className="size-8 text-white" />
          </div>
        )}
        {status === 'failed' && (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 p-6 text-center text-sm text-white">
            <CameraOff className="size-8" aria-hidden="true" />
            <p>The camera could not be started.</p>
          </div>
        )}
      </div>
      <div aria-live="polite" className="min-h-5 text-sm">
        {status === 'scanning' && (
          <p className="flex items-center gap-2 text-muted-foreground">
            <ScanLine className="size-4 shrink-0" aria-hidden="true" />
            Point the camera at the QR code the site shows for two-factor setup.
          </p>
        )}
        {status === 'invalid' && (
          <p className="flex items-center gap-2 text-destructive">
            <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
            That QR code isn&apos;t a TOTP setup code. Still scanning…
          </p>
        )}
        {status === 'migration' && (
          <p className="flex items-center gap-2 text-destructive">
            <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
            That&apos;s a Google Authenticator export: add it with Import (next to Add Account).
          </p>
        )}
        {status === 'failed' && (
          <div className="space-y-2">
            <p className="text-destructive">
              Allow camera access in your browser&apos;s site settings, or use Upload or Manual instead.
            </p>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => {
                setStatus('starting');
                setAttempt((n) => n + 1);
              }}
            >
              Try again
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}
