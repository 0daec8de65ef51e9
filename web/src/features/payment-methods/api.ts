import { useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/api';
import type { PaymentMethods } from '@common/contract/payments';

/** GET /api/payments/methods (public). */
export type { PaymentMethods };

export const paymentMethodsQueryKey = ['payments', 'methods'] as const;

export function usePaymentMethods() {
  return useQuery({ queryKey: paymentMethodsQueryKey, queryFn: ({ signal }) => apiGet<PaymentMethods>('/api/payments/methods', { signal }), staleTime: 5 * 60_000 });
}
