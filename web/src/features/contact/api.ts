/** The contact desk (SPEC "Contact"). Shapes come from common/contract/contact.ts (what the server validates its answers with). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiSend } from '@/lib/api';
import type {
  ContactCategory,
  ContactStatus,
  ContactStatusAnswer,
  DeskMessageAnswer,
  DeskMessages,
  EscalateInput,
  MyMessages,
  SendContactInput,
  SentContact,
} from '@common/contract/contact';

export type { ContactCategory, ContactMessage, ContactStatus, DeskMessage } from '@common/contract/contact';

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
    mutationFn: (body: SendContactInput & { category: ContactCategory }) =>
      apiSend<SentContact>('POST', '/api/contact', body),
    onSuccess: () => void client.invalidateQueries({ queryKey: contactKeys.mine }),
  });
}

export function useMyMessages(enabled: boolean) {
  return useQuery({ queryKey: contactKeys.mine, queryFn: ({ signal }) => apiGet<MyMessages>('/api/contact/mine', { signal }), enabled });
}

export function fetchStatus(reference: string, email: string) {
  return apiGet<ContactStatusAnswer>(`/api/contact/status?reference=${encodeURIComponent(reference)}&email=${encodeURIComponent(email)}`);
}

/** SPEC §9: the desk polls messages every 60 s. */
export const MESSAGES_POLL_MS = 60_000;

export function useDeskMessages(status: string) {
  return useQuery({
    queryKey: contactKeys.desk(status),
    queryFn: ({ signal }) => apiGet<DeskMessages>(`/api/financial/contact-messages?status=${encodeURIComponent(status)}`, { signal }),
    refetchInterval: MESSAGES_POLL_MS,
  });
}

function useDeskAction<T>(request: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: request, onSettled: () => void client.invalidateQueries({ queryKey: ['/api/financial'] }) });
}

export const useEscalateMessage = () =>
  useDeskAction(({ id, escalationType }: { id: string } & EscalateInput) => apiSend<DeskMessageAnswer>('POST', `/api/financial/escalate-message/${encodeURIComponent(id)}`, { escalationType }));
export const useCloseMessage = () =>
  useDeskAction(({ id, resolution }: { id: string; resolution: string }) => apiSend<DeskMessageAnswer>('POST', `/api/financial/close-message/${encodeURIComponent(id)}`, { resolution }));
