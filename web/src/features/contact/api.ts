/** The contact desk (SPEC "Contact"). Shapes mirror server/src/features/contact/service.ts. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiSend } from '@/lib/api';

export type ContactCategory = 'general' | 'technical' | 'payment' | 'refund';
export type ContactStatus = 'open' | 'assigned_to_luna' | 'escalated' | 'closed';

export interface ContactMessage {
  id: string;
  reference: string;
  category: ContactCategory;
  subject: string;
  message: string;
  status: ContactStatus;
  escalatedTo: 'luna' | 'admin' | null;
  lunaResponse: string | null;
  resolution: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

export interface DeskMessage extends ContactMessage {
  email: string;
  companyName: string | null;
  userId: string | null;
  priority: 'urgent' | 'normal';
}

export const CATEGORY_LABELS: Record<ContactCategory, string> = {
  general: 'General Inquiry',
  technical: 'Technical Support',
  payment: 'Payment Issues',
  refund: 'Refund Request',
};

export const STATUS_LABELS: Record<ContactStatus, string> = {
  open: 'Open',
  assigned_to_luna: 'Answered by Luna',
  escalated: 'Escalated',
  closed: 'Closed',
};

export const contactKeys = {
  mine: ['/api/contact/mine'] as const,
  desk: (status: string) => ['/api/financial', 'contact-messages', status] as const,
};

export function useSendContact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { email?: string; category: ContactCategory; subject: string; message: string }) =>
      apiSend<{ message: ContactMessage; reference: string }>('POST', '/api/contact', body),
    onSuccess: () => void client.invalidateQueries({ queryKey: contactKeys.mine }),
  });
}

export function useMyMessages(enabled: boolean) {
  return useQuery({ queryKey: contactKeys.mine, queryFn: ({ signal }) => apiGet<{ messages: ContactMessage[] }>('/api/contact/mine', { signal }), enabled });
}

export function fetchStatus(reference: string, email: string) {
  return apiGet<{ message: ContactMessage }>(`/api/contact/status?reference=${encodeURIComponent(reference)}&email=${encodeURIComponent(email)}`);
}

/** SPEC §9: the desk polls messages every 60 s. */
export const MESSAGES_POLL_MS = 60_000;

export function useDeskMessages(status: string) {
  return useQuery({
    queryKey: contactKeys.desk(status),
    queryFn: ({ signal }) => apiGet<{ messages: DeskMessage[] }>(`/api/financial/contact-messages?status=${encodeURIComponent(status)}`, { signal }),
    refetchInterval: MESSAGES_POLL_MS,
  });
}

function useDeskAction<T>(request: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: request, onSettled: () => void client.invalidateQueries({ queryKey: ['/api/financial'] }) });
}

export const useEscalateMessage = () =>
  useDeskAction(({ id, escalationType }: { id: string; escalationType: 'luna' | 'admin' }) => apiSend('POST', `/api/financial/escalate-message/${encodeURIComponent(id)}`, { escalationType }));
export const useCloseMessage = () =>
  useDeskAction(({ id, resolution }: { id: string; resolution: string }) => apiSend('POST', `/api/financial/close-message/${encodeURIComponent(id)}`, { resolution }));
