/**
 * The administrator's calls (session cookie). Every /api/admin route but mfa/* answers
 * 403 `mfa_required` when this session's MFA is older than 30 minutes: the pages then send the
 * administrator back to /admin to verify (see `useAdminQuery`). Shapes come from
 * common/contract/{admin,notices}.ts, the schemas the server validates its answers with.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { shouldRetry } from '@/app/query-client';
import { authQueryKeys } from '@/features/auth/api';
import { ApiError, apiGet, apiSend } from '@/lib/api';
import type {
  AdminBusinessDetail,
  AdminBusinesses,
  AdminDashboard,
  AdminPayments,
  AdminUsers,
  AuditFilters,
  AuditPage,
  ImpersonationStarted,
  LiveImpersonation,
  MfaConfirmed,
  MfaProof,
  MfaSetup,
  MfaSetupBody,
  MfaStatus,
  MfaVerified,
  RoleChanged,
  Roles,
} from '@common/contract/admin';
import type { UserNotices } from '@common/contract/notices';
import type { Ok } from '@common/contract/shared';

export type {
  AdminBusiness,
  AdminDashboard,
  AdminPayments,
  AdminUser,
  AuditEntry,
  AuditFilters,
  LedgerRow,
  MfaSetup,
  MfaStatus,
} from '@common/contract/admin';
export type { UserNotice } from '@common/contract/notices';

/** SPEC §4: the client polls MFA status every 30 s. */
export const MFA_POLL_MS = 30_000;

export const adminKeys = {
  all: ['/api/admin'] as const,
  mfa: ['/api/admin', 'mfa'] as const,
  dashboard: ['/api/admin', 'dashboard'] as const,
  payments: ['/api/admin', 'payments'] as const,
  users: (q: string) => ['/api/admin', 'users', q] as const,
  liveImpersonation: ['/api/admin', 'impersonation'] as const,
  roles: ['/api/admin', 'roles'] as const,
  audit: (filters: AuditFilters, page: number) => ['/api/admin', 'audit', filters, page] as const,
  businesses: (q: string) => ['/api/admin', 'businesses', q] as const,
  business: (id: string) => ['/api/admin', 'business', id] as const,
  notices: ['/api/user/notices'] as const,
};

export function isMfaRequired(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'mfa_required';
}

export function isForbidden(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}

const retry = (failureCount: number, error: unknown) => !isForbidden(error) && shouldRetry(failureCount, error);

export function useMfaStatus(enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.mfa,
    queryFn: ({ signal }) => apiGet<MfaStatus>('/api/admin/mfa/status', { signal }),
    enabled,
    retry: false,
    refetchInterval: MFA_POLL_MS,
  });
}

export function useMfaSetup() {
  return useMutation({ mutationFn: (body: NonNullable<MfaSetupBody>) => apiSend<MfaSetup>('POST', '/api/admin/mfa/setup', body) });
}

function useMfaProof<T>(url: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MfaProof) => apiSend<T>('POST', url, body),
    onSuccess: () => void client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export const useMfaConfirm = () => useMfaProof<MfaConfirmed>('/api/admin/mfa/confirm');
export const useMfaVerify = () => useMfaProof<MfaVerified>('/api/admin/mfa/verify');

/** A GET behind the admin guard: no retry on 403, so an expired MFA shows at once. */
function useAdminQuery<T>(queryKey: readonly unknown[], url: string, options: { refetchInterval?: number; enabled?: boolean } = {}) {
  return useQuery({
    queryKey,
    queryFn: ({ signal }) => apiGet<T>(url, { signal }),
    retry,
    ...options,
  });
}

export const useAdminDashboard = () => useAdminQuery<AdminDashboard>(adminKeys.dashboard, '/api/admin/dashboard', { refetchInterval: 30_000 });
export const useAdminPayments = () => useAdminQuery<AdminPayments>(adminKeys.payments, '/api/admin/payments', { refetchInterval: 30_000 });
export const useAdminUsers = (q: string) => useAdminQuery<AdminUsers>(adminKeys.users(q), `/api/admin/users?q=${encodeURIComponent(q)}`);
/** The one impersonation running now (possibly from another admin session), polled like the dashboard. */
export const useLiveImpersonation = () => useAdminQuery<LiveImpersonation>(adminKeys.liveImpersonation, '/api/admin/impersonation', { refetchInterval: 30_000 });
export const useAdminRoles = () =>
  useAdminQuery<Roles>(adminKeys.roles, '/api/admin/roles');
export const useAdminBusinesses = (q: string) => useAdminQuery<AdminBusinesses>(adminKeys.businesses(q), `/api/admin/businesses?q=${encodeURIComponent(q)}`);
export const useAdminBusiness = (id: string | null) =>
  useAdminQuery<AdminBusinessDetail>(adminKeys.business(id ?? ''), `/api/admin/businesses/${encodeURIComponent(id ?? '')}`, { enabled: id !== null });

export function auditQuery(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...extra })) if (value) params.set(key, value);
  return params.toString();
}

export const AUDIT_PAGE_SIZE = 25;
export const useAdminAudit = (filters: AuditFilters, page: number) =>
  useAdminQuery<AuditPage>(
    adminKeys.audit(filters, page),
    `/api/admin/audit?${auditQuery(filters, { page: String(page), pageSize: String(AUDIT_PAGE_SIZE) })}`,
  );

/** A write behind the admin guard; every admin query is refreshed after it. */
export function useAdminAction<TInput, TResult = unknown>(request: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: request, onSettled: () => void client.invalidateQueries({ queryKey: adminKeys.all }) });
}

export const useAssignFinancialManager = () => useAdminAction((userEmail: string) => apiSend<RoleChanged>('POST', '/api/admin/assign-financial-manager', { userEmail }));
export const useRemoveFinancialManager = () => useAdminAction((userEmail: string) => apiSend<RoleChanged>('POST', '/api/admin/remove-financial-manager', { userEmail }));

/**
 * Starting or stopping an impersonation swaps the session cookie: go to `destination` first (the
 * page that asked may not exist for the new person), then reload everything as them.
 */
function useSessionSwap<TInput>(request: (input: TInput) => Promise<unknown>, destination: (input: TInput) => string) {
  const client = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: request,
    onSuccess: async (_result, input) => {
      navigate(destination(input));
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== authQueryKeys.currentUser[0] });
      await client.invalidateQueries({ queryKey: authQueryKeys.currentUser });
    },
  });
}

export const useStartImpersonation = () =>
  useSessionSwap(
    (input: { userId: string; reason: string; landing: string }) => apiSend<ImpersonationStarted>('POST', '/api/admin/impersonation/start', { userId: input.userId, reason: input.reason }),
    (input) => input.landing,
  );
export const useStopImpersonation = () => useSessionSwap(() => apiSend<Ok>('POST', '/api/admin/impersonation/stop', {}), () => '/admin/impersonation');

export function useNotices(enabled: boolean) {
  return useQuery({ queryKey: adminKeys.notices, queryFn: ({ signal }) => apiGet<UserNotices>('/api/user/notices', { signal }), enabled, retry });
}

export function useMarkNoticeRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<Ok>('POST', `/api/user/notices/${encodeURIComponent(id)}/read`, {}),
    onSettled: () => void client.invalidateQueries({ queryKey: adminKeys.notices }),
  });
}
