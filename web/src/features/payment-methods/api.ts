import { useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/api';

/** GET /api/payments/methods (public). Shape: server/src/features/payments/schemas.ts PaymentMethodsResponse. */
export interface PaymentMethods {
  currency: 'INR';
  pricePerVerification: string;
  minimumAmount: string;
  packs: { id: string; name: string; amount: string; verifications: number; popular: boolean; description: string }[];
  bankTransfer: {
    available: boolean;
    demo: boolean;
    payee: { upiId: string; name: string; bankDetails: string | null } | null;
    referenceValidDays: number;
  };
  card: { available: boolean };
  review: { minHours: number; maxHours: number; days: string; hours: string; timeZone: string };
}

export const paymentMethodsQueryKey = ['payments', 'methods'] as const;

export function usePaymentMethods() {
  return useQuery({ queryKey: paymentMethodsQueryKey, queryFn: ({ signal }) => apiGet<PaymentMethods>('/api/payments/methods', { signal }), staleTime: 5 * 60_000 });
}
