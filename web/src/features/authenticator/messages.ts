/**
 * The words of SPEC.md §8 this page shows, as toast title and description. The server and
 * `common/otpauth` write some of them as one "Title: description" string; they are split here.
 */
import { INVALID_QR_MESSAGE, OtpauthError } from '@common/otpauth';
import type { ToastInput } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { ImportError, isNetworkFailure } from './api';
import { QrScanError } from './qr-decode';
import { OfflineError } from './vault/session';

type Message = Pick<ToastInput, 'title' | 'description' | 'variant'>;

function split(message: string, fallbackTitle: string): { title: string; description: string } {
  const match = /^(QR Scan Failed|Invalid QR Code|Camera Access Failed): ([\s\S]*)$/.exec(message);
  return match ? { title: match[1]!, description: match[2]! } : { title: fallbackTitle, description: message };
}

export const INVALID_QR: Message = { variant: 'destructive', ...split(INVALID_QR_MESSAGE, 'Invalid QR Code') };

export const CAMERA_ACCESS_FAILED: Message = {
  variant: 'destructive',
  title: 'Camera Access Failed',
  description: 'Please allow camera access to scan QR codes.',
};

export const QR_DETECTED: Message = { title: 'QR Code Detected!', description: 'Check the details, then add the account.' };
export const QR_SCANNED: Message = { title: 'QR Code Scanned', description: 'Check the details, then add the account.' };

/** An image this device could not read ("QR Scan Failed: …", "Invalid QR Code: …"). */
export function scanFailed(error: unknown): Message {
  const message = error instanceof QrScanError ? error.message : 'QR Scan Failed: Could not read QR code from the image. Please try again or enter details manually.';
  return { variant: 'destructive', ...split(message, 'QR Scan Failed') };
}

/** A vault write that failed: the shared rules' and the vault's own messages are shown as they are. */
export function vaultErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof OtpauthError || error instanceof OfflineError) return error.message;
  if (error instanceof ImportError) return vaultErrorMessage(error.cause, fallback);
  if (isNetworkFailure(error)) return 'No connection: the change was not saved. Try again when you are online.';
  return errorMessage(error, fallback);
}
