/**
 * Buying credits, business side (session cookie). Shapes come from common/contract/payments.ts,
 * the schemas the server validates its answers with.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiSend } from '@/lib/api';
import { businessQueryKeys, isNoBusiness } from '@/features/business/api';
import { shouldRetry } from '@/app/query-client';
import type {
  NotificationList,
  PaymentConfig,
  PaymentNotification,
  PaymentRequest,
  PaymentRequestInput,
  QrOption,
  QrOptions,
  RazorpayOrder,
  RazorpayResult,
  VerifiedPayment,
} from '@common/contract/payments';

export type {
  NotificationList,
  PaymentConfig,
  PaymentNotification,
  PaymentRequest,
  PaymentRequestInput,
  PaymentStatus,
  QrOption,
  QrOptions,
  RazorpayOrder,
  RazorpayResult,
  VerifiedPayment,
} from '@common/contract/payments';

export const paymentQueryKeys = {
  config: ['/api/business/payment-config'] as const,
  qrOptions: ['/api/business/static-qr-options'] as const,
  requests: ['/api/business/payment-requests'] as const,
  notifications: ['/api/business/notifications'] as const,
};

/** Options in pack order: option1 … option4. */
export function qrOptionList(options: QrOptions): QrOption[] {
  return Object.keys(options)
    .filter((key) => /^option\d+$/.test(key))
    .sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)))
    .map((key) => options[key]!);
}

export function usePaymentConfig(enabled = true) {
  return useQuery({
    queryKey: paymentQueryKeys.config,
    queryFn: ({ signal }) => apiGet<PaymentConfig>('/api/business/payment-config', { signal }),
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** Each load issues fresh references, so never refetch behind the payer's back. */
export function useQrOptions(enabled: boolean) {
  return useQuery({
    queryKey: paymentQueryKeys.qrOptions,
    queryFn: ({ signal }) => apiGet<QrOptions>('/api/business/static-qr-options', { signal }),
    enabled,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

export function usePaymentRequests(enabled: boolean) {
  return useQuery({
    queryKey: paymentQueryKeys.requests,
    queryFn: ({ signal }) => apiGet<PaymentRequest[]>('/api/business/payment-requests', { signal }),
    enabled,
    // A decision may arrive while the page is open.
    refetchInterval: 60_000,
  });
}

export function useSubmitPaymentRequest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: PaymentRequestInput) => apiSend<PaymentRequest>('POST', '/api/business/payment-requests', input),
    onSuccess: (created) => {
      client.setQueryData<PaymentRequest[]>(paymentQueryKeys.requests, (old) => [created, ...(old ?? []).filter((r) => r.id !== created.id)]);
      void client.invalidateQueries({ queryKey: paymentQueryKeys.requests });
    },
  });
}

export function useNotifications() {
  return useQuery({
    queryKey: paymentQueryKeys.notifications,
    queryFn: ({ signal }) => apiGet<NotificationList>('/api/business/notifications', { signal }),
    retry: (failureCount, error) => !isNoBusiness(error) && shouldRetry(failureCount, error),
    refetchInterval: 60_000,
  });
}

export function useMarkNotificationRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<PaymentNotification>('POST', `/api/business/notifications/${encodeURIComponent(id)}/read`),
    onMutate: (id) => {
      client.setQueryData<NotificationList>(paymentQueryKeys.notifications, (old) =>
        old
          ? {
              unreadCount: Math.max(0, old.unreadCount - (old.notifications.some((n) => n.id === id && !n.read) ? 1 : 0)),
              notifications: old.notifications.map((n) => (n.id === id ? { ...n, read: true } : n)),
            }
          : old,
      );
    },
    onSettled: () => void client.invalidateQueries({ queryKey: paymentQueryKeys.notifications }),
  });
}

export function createOrder(amount: string) {
  return apiSend<RazorpayOrder>('POST', '/api/business/create-order', { amount });
}

export function verifyPayment(result: RazorpayResult) {
  return apiSend<VerifiedPayment>('POST', '/api/business/verify-payment', result);
}

/** After a credit: the balance, ledger and dashboard all changed. */
export function refreshBusiness(client: ReturnType<typeof useQueryClient>) {
  void client.invalidateQueries({ queryKey: businessQueryKeys.profile });
  void client.invalidateQueries({ queryKey: businessQueryKeys.ledger });
}
