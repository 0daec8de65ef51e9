/**
 * The business dashboard's calls (session cookie). Shapes come from the contract the server
 * validates its answers with (common/contract/business.ts).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiGet, apiSend } from '@/lib/api';
import { shouldRetry } from '@/app/query-client';
import type { TopUpPackId } from '@common/pricing';

import type {
  ApiMode,
  AutoRefillBody,
  BillingBody,
  BillingDetails,
  BusinessDashboard,
  BusinessProfile,
  CreatedBusiness,
  LedgerEntry,
  MandateBody,
  MandateConfirmBody,
  MandateOrder,
  PaymentHistoryEntry,
  RegeneratedKey,
} from '@common/contract/business';

export type {
  ApiMode,
  AutoRefillMode,
  AutoRefillSettings,
  BillingBody,
  BillingDetails,
  MandateOrder,
  PaymentHistoryEntry,
  BusinessDashboard,
  BusinessProfile,
  CreatedBusiness,
  DailyCount,
  LedgerEntry,
  RecentVerification,
  RegeneratedKey,
  VerificationStatus,
} from '@common/contract/business';

/** What the auto-refill dialog sends: the contract's body, with the pack narrowed to the catalogue. */
export type AutoRefillInput = AutoRefillBody & { packId: TopUpPackId };

export const businessQueryKeys = {
  profile: ['/api/business/profile'] as const,
  dashboard: ['/api/business/dashboard'] as const,
  dashboardOf: (mode: ApiMode) => ['/api/business/dashboard', mode] as const,
  ledger: ['/api/business/ledger'] as const,
  payments: ['/api/business/payments'] as const,
  billing: ['/api/business/billing'] as const,
};

/** The receipt's PDF (the server answers it as a download). */
export function receiptPdfUrl(receiptId: string): string {
  return `/api/business/receipts/${encodeURIComponent(receiptId)}.pdf`;
}

export const USAGE_CSV_PATH = '/api/business/usage.csv';

/** The CSV export URL for a range of UTC days (inclusive), as YYYY-MM-DD, of one mode's checks. */
export function usageCsvUrl(from: string, to: string, mode: ApiMode = 'live'): string {
  const params = new URLSearchParams({ from, to, ...(mode === 'test' ? { mode } : {}) });
  return `${USAGE_CSV_PATH}?${params.toString()}`;
}

/** True when the server said "you have no business account yet". */
export function isNoBusiness(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** A 404 is an answer ("no business yet"), not a failure worth retrying. */
function retryUnlessMissing(failureCount: number, error: unknown): boolean {
  return !isNoBusiness(error) && shouldRetry(failureCount, error);
}

export function useBusinessProfile() {
  return useQuery({
    queryKey: businessQueryKeys.profile,
    queryFn: ({ signal }) => apiGet<BusinessProfile>('/api/business/profile', { signal }),
    retry: retryUnlessMissing,
  });
}

/** Fetched only once a profile exists (SPEC §4); live figures unless test mode is being viewed. */
export function useBusinessDashboard(enabled: boolean, mode: ApiMode = 'live') {
  return useQuery({
    queryKey: businessQueryKeys.dashboardOf(mode),
    queryFn: ({ signal }) => apiGet<BusinessDashboard>(`/api/business/dashboard?mode=${mode}`, { signal }),
    enabled,
    refetchInterval: 60_000,
  });
}

export function useLedger(enabled: boolean) {
  return useQuery({
    queryKey: businessQueryKeys.ledger,
    queryFn: ({ signal }) => apiGet<LedgerEntry[]>('/api/business/ledger', { signal }),
    enabled,
  });
}

function profileOnly(created: CreatedBusiness): BusinessProfile {
  // Keep the full keys out of the query cache: they live only in the page that shows them once.
  const { apiKey: _apiKey, testApiKey: _testApiKey, ...profile } = created;
  return profile;
}

export function useCreateBusiness() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (companyName: string) => apiSend<CreatedBusiness>('POST', '/api/business/create', { companyName }),
    onSuccess: (created) => {
      client.setQueryData(businessQueryKeys.profile, profileOnly(created));
    },
    onError: (error) => {
      // 409: this account already has a business (another tab) — show it.
      if (error instanceof ApiError && error.status === 409) {
        void client.invalidateQueries({ queryKey: businessQueryKeys.profile });
      }
    },
  });
}

/** Replaces one mode's key; the other keeps working. */
export function useRegenerateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (mode: ApiMode) => apiSend<RegeneratedKey>('POST', `/api/business/api-key/regenerate?mode=${mode}`),
    onSuccess: ({ prefix, mode }) => {
      const now = new Date().toISOString();
      client.setQueryData<BusinessProfile>(businessQueryKeys.profile, (old) =>
        !old
          ? old
          : mode === 'test'
            ? { ...old, testApiKeyPrefix: prefix, testApiKeyCreatedAt: now, testApiKeyLastUsedAt: null }
            : { ...old, apiKeyPrefix: prefix, apiKeyCreatedAt: now, apiKeyLastUsedAt: null },
      );
      void client.invalidateQueries({ queryKey: businessQueryKeys.profile });
    },
  });
}

export function useUpdateAutoRefill() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AutoRefillInput) => apiSend<BusinessProfile>('PUT', '/api/business/auto-refill', input),
    onSuccess: (profile) => {
      client.setQueryData(businessQueryKeys.profile, profile);
    },
  });
}

/** Auto-refill with Razorpay, step 1: the authorisation order for Razorpay's checkout (`recurring: "1"`). */
export function startMandate(input: MandateBody & { packId: TopUpPackId }): Promise<MandateOrder> {
  return apiSend<MandateOrder>('POST', '/api/business/auto-refill/mandate', input);
}

/** Step 2: the checkout's signed result; the answer is the profile with the mandate saved. */
export function confirmMandate(result: MandateConfirmBody): Promise<BusinessProfile> {
  return apiSend<BusinessProfile>('POST', '/api/business/auto-refill/mandate/confirm', result);
}

export function useRemoveMandate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend<BusinessProfile>('DELETE', '/api/business/auto-refill/mandate'),
    onSuccess: (profile) => {
      client.setQueryData(businessQueryKeys.profile, profile);
    },
  });
}

/** Bank/UPI claims in every state and card payments, each with its receipt once credited. */
export function usePaymentHistory(enabled: boolean) {
  return useQuery({
    queryKey: businessQueryKeys.payments,
    queryFn: ({ signal }) => apiGet<PaymentHistoryEntry[]>('/api/business/payments', { signal }),
    enabled,
  });
}

export function useBillingDetails(enabled: boolean) {
  return useQuery({
    queryKey: businessQueryKeys.billing,
    queryFn: ({ signal }) => apiGet<BillingDetails>('/api/business/billing', { signal }),
    enabled,
  });
}

export function useUpdateBilling() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: BillingBody) => apiSend<BillingDetails>('PUT', '/api/business/billing', input),
    onSuccess: (details) => {
      client.setQueryData(businessQueryKeys.billing, details);
    },
  });
}
