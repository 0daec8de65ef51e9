import { toast } from '@/components/ui/use-toast';
import { errorMessage, isUnauthorized } from '@/lib/api';

/** SPEC §5's message, shown as "Validation Error: …". */
export const VALIDATION_TITLE = 'Validation Error';
export const VALIDATION_MESSAGE = 'Please provide a URL and select at least one event.';

/**
 * SPEC §8: a webhook call that fails says "Error" with the server's message, or a fallback.
 * A 401 is left to the global handler (its "Unauthorized" toast and sign-in redirect).
 */
export function toastWebhookError(error: unknown, fallback: string): void {
  if (isUnauthorized(error)) return;
  toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, fallback) });
}
