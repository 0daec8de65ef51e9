import { apiSend } from '@/lib/api';
import type { LunaAnswer, LunaChatInput, LunaSource } from '@common/contract/luna';

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  /** Markdown */
  content: string;
  type: 'text' | 'code';
  timestamp: number;
  sources?: LunaSource[];
}

/** POST /api/luna/chat's answer (common/contract/luna.ts). */
export type ChatReply = LunaAnswer;

/** SPEC §7: the question, and the last 5 messages as context. */
export function askLuna(message: string, history: ChatMessage[], userId: string | null, hasApiKey: boolean) {
  const body: LunaChatInput = {
    message,
    context: { userId, hasApiKey, messageHistory: history.slice(-5).map((m) => ({ role: m.role, content: m.content.slice(0, 4000) })) },
  };
  return apiSend<ChatReply>('POST', '/api/luna/chat', body);
}
