/** E-mail preferences and unsubscribe links. Shapes come from common/contract/mail.ts. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiSend } from '@/lib/api';
import type { EmailPreferences, UnsubscribeState, UpdateEmailPreferenceBody } from '@common/contract/mail';

export type { EmailPreference, EmailPreferences, UnsubscribeState } from '@common/contract/mail';

export const emailKeys = {
  preferences: ['/api/user/email-preferences'] as const,
  unsubscribe: (token: string) => ['/api/mail/unsubscribe', token] as const,
};

export function useEmailPreferences() {
  return useQuery({ queryKey: emailKeys.preferences, queryFn: ({ signal }) => apiGet<EmailPreferences>('/api/user/email-preferences', { signal }) });
}

export function useSetEmailPreference() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateEmailPreferenceBody) => apiSend<EmailPreferences>('PUT', '/api/user/email-preferences', body),
    onSuccess: (answer) => client.setQueryData(emailKeys.preferences, answer),
  });
}

export function useUnsubscribeState(token: string) {
  return useQuery({
    queryKey: emailKeys.unsubscribe(token),
    queryFn: ({ signal }) => apiGet<UnsubscribeState>(`/api/mail/unsubscribe?token=${encodeURIComponent(token)}`, { signal }),
    enabled: token !== '',
    retry: false,
  });
}

export function useSetByToken(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => apiSend<UnsubscribeState>('POST', '/api/mail/unsubscribe', { token, enabled }),
    onSuccess: (answer) => client.setQueryData(emailKeys.unsubscribe(token), answer),
  });
}
