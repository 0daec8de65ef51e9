/**
 * Webhook management calls (session cookie). Shapes come from common/contract/webhooks.ts, the
 * schemas the server validates its answers with.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiSend } from '@/lib/api';
import type { CreatedWebhook, CreateWebhookInput, ResendResponse, TestEventQueued, Webhook, WebhookLogEntry } from '@common/contract/webhooks';
import type { ApiMode } from '@common/contract/business';

/** The events a webhook can subscribe to (SPEC §9), with what each one means. */
export const WEBHOOK_EVENTS = [
  { id: 'verification.success', label: 'Verification succeeded', description: 'A billed check accepted the code.' },
  { id: 'verification.failed', label: 'Verification failed', description: 'A billed check rejected the code (wrong, expired or reused).' },
  { id: 'credit.low', label: 'Credit low', description: 'Your balance dropped below ₹100 (or your auto-refill threshold).' },
  { id: 'credit.depleted', label: 'Credit depleted', description: 'Your balance can no longer pay for one verification (₹0.10).' },
] as const;

export type WebhookEventId = (typeof WEBHOOK_EVENTS)[number]['id'];

export type { CreatedWebhook, CreateWebhookInput, ResendResponse, TestEventQueued, Webhook, WebhookLogEntry } from '@common/contract/webhooks';

/** Each mode's endpoints and log are their own query; the first element alone matches both modes. */
export const webhookQueryKeys = {
  list: ['/api/webhooks'] as const,
  logs: ['/api/webhooks/logs'] as const,
  listOf: (mode: ApiMode) => ['/api/webhooks', mode] as const,
  logsOf: (mode: ApiMode) => ['/api/webhooks/logs', mode] as const,
};

/** The server allows this many per business (server/src/features/webhooks/service.ts). */
export const MAX_WEBHOOKS = 10;

/** How often the delivery log is refreshed while the section is on screen (SPEC: 5–10 s). */
export const LOG_REFETCH_MS = 5_000;
/** The list refreshes too: "last triggered" and 410-disabled endpoints change on the server. */
export const LIST_REFETCH_MS = 10_000;

/** One mode's endpoints: live ones hear the live key's events, test ones the test key's. */
export function useWebhooks(mode: ApiMode = 'live') {
  return useQuery({
    queryKey: webhookQueryKeys.listOf(mode),
    queryFn: () => apiGet<Webhook[]>(`/api/webhooks?mode=${mode}`),
    refetchInterval: LIST_REFETCH_MS,
  });
}

export function useWebhookLogs(mode: ApiMode = 'live') {
  return useQuery({
    queryKey: webhookQueryKeys.logsOf(mode),
    queryFn: () => apiGet<WebhookLogEntry[]>(`/api/webhooks/logs?mode=${mode}`),
    refetchInterval: LOG_REFETCH_MS,
  });
}

function useInvalidateWebhooks() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: webhookQueryKeys.list }),
      client.invalidateQueries({ queryKey: webhookQueryKeys.logs }),
    ]);
}

export function useCreateWebhook() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: (input: CreateWebhookInput) => apiSend<CreatedWebhook>('POST', '/api/webhooks', input),
    onSuccess: () => invalidate(),
  });
}

export function useToggleWebhook() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) =>
      apiSend<Webhook>('PATCH', `/api/webhooks/${encodeURIComponent(id)}/toggle`, { isActive }),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteWebhook() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: (id: string) => apiSend<void>('DELETE', `/api/webhooks/${encodeURIComponent(id)}`),
    onSuccess: () => invalidate(),
  });
}


/** Sends a logged delivery again, with its original webhook-id (receivers can dedupe). */
export function useResendDelivery() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: (deliveryId: string) => apiSend<ResendResponse>('POST', `/api/webhooks/logs/${encodeURIComponent(deliveryId)}/resend`),
    onSuccess: () => invalidate(),
  });
}

export function useSendTestEvent() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: (id: string) => apiSend<TestEventQueued>('POST', `/api/webhooks/${encodeURIComponent(id)}/test`),
    onSuccess: () => invalidate(),
  });
}
