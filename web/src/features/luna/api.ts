import { apiSend } from '@/lib/api';

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  /** Markdown */
  content: string;
  type: 'text' | 'code';
  timestamp: number;
  sources?: Array<{ title: string; section: string }>;
}

export interface ChatReply {
  response: string;
  type: 'text' | 'code';
  sources: Array<{ title: string; section: string }>;
  answeredBy: 'retrieval' | 'model';
}

/** SPEC §7: the question, and the last 5 messages as context. */
export function askLuna(message: string, history: ChatMessage[], userId: string | null, hasApiKey: boolean) {
  return apiSend<ChatReply>('POST', '/api/luna/chat', {
    message,
    context: { userId, hasApiKey, messageHistory: history.slice(-5).map((m) => ({ role: m.role, content: m.content.slice(0, 4000) })) },
  });
}
