/**
 * The financial manager's desk (session cookie; roles financial_manager and admin). Shapes come
 * from common/contract/financial.ts, the schemas the server validates its answers with.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiGet, apiSend } from '@/lib/api';
import { shouldRetry } from '@/app/query-client';
import type { ApprovedPayment, DeskPayment, DeskStats } from '@common/contract/financial';

export type { ApprovedPayment, DeskPayment, DeskStats, DuplicateUtrClaim } from '@common/contract/financial';

/** SPEC §9 polling. */
export const APPROVALS_POLL_MS = 30_000;
export const STATS_POLL_MS = 5 * 60_000;

export const deskQueryKeys = {
  all: ['/api/financial'] as const,
  pending: ['/api/financial', 'pending-approvals'] as const,
  stats: ['/api/financial', 'stats'] as const,
  recent: ['/api/financial', 'recent'] as const,
};

export function isForbidden(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}

function retryUnlessForbidden(failureCount: number, error: unknown): boolean {
  return !isForbidden(error) && shouldRetry(failureCount, error);
}

export function usePendingApprovals(enabled: boolean) {
  return useQuery({
    queryKey: deskQueryKeys.pending,
    queryFn: ({ signal }) => apiGet<DeskPayment[]>('/api/financial/pending-approvals', { signal }),
    enabled,
    retry: retryUnlessForbidden,
    refetchInterval: APPROVALS_POLL_MS,
  });
}

export function useDeskStats(enabled: boolean) {
  return useQuery({
    queryKey: deskQueryKeys.stats,
    queryFn: ({ signal }) => apiGet<DeskStats>('/api/financial/stats', { signal }),
    enabled,
    retry: retryUnlessForbidden,
    refetchInterval: STATS_POLL_MS,
  });
}

export function useRecentlyProcessed(enabled: boolean) {
  return useQuery({
    queryKey: deskQueryKeys.recent,
    queryFn: ({ signal }) => apiGet<DeskPayment[]>('/api/financial/recent?limit=10', { signal }),
    enabled,
    retry: retryUnlessForbidden,
    refetchInterval: APPROVALS_POLL_MS,
  });
}

export function approveUrl(id: string): string {
  return `/api/financial/approve-payment/${encodeURIComponent(id)}`;
}

export function rejectUrl(id: string): string {
  return `/api/financial/reject-payment/${encodeURIComponent(id)}`;
}

function useDecision<TInput>(request: (input: TInput) => Promise<DeskPayment>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (decided) => {
      client.setQueryData<DeskPayment[]>(deskQueryKeys.pending, (old) => old?.filter((p) => p.id !== decided.id));
    },
    // Refresh after failures too: a 409 means someone else decided it meanwhile.
    onSettled: () => {
      void client.invalidateQueries({ queryKey: deskQueryKeys.all });
      // The admin's payments page shows the same requests.
      void client.invalidateQueries({ queryKey: ['/api/admin'] });
    },
  });
}

export function useApprovePayment() {
  return useDecision(({ id, notes }: { id: string; notes?: string }) =>
    apiSend<ApprovedPayment>('POST', approveUrl(id), notes ? { notes } : {}),
  );
}

export function useRejectPayment() {
  return useDecision(({ id, reason }: { id: string; reason: string }) => apiSend<DeskPayment>('POST', rejectUrl(id), { reason }));
}
