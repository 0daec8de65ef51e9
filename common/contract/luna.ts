/** Luna, the assistant (POST /api/luna/chat). */
import { z } from 'zod';
import { storableText } from './shared';

/**
 * The body's businessId and context are accepted for the widget's sake but never trusted:
 * account facts come from the session's own user, if any.
 */
export const LunaChatBody = z.object({
  message: storableText().trim().min(1, 'Type a question.').max(2000),
  businessId: z.string().max(64).nullish(),
  context: z
    .object({
      userId: z.string().max(64).nullish(),
      hasApiKey: z.boolean().nullish(),
      messageHistory: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().max(4000) })).max(5).nullish(),
    })
    .nullish(),
});
export type LunaChatInput = z.input<typeof LunaChatBody>;

export const LunaSource = z.object({ title: z.string(), section: z.string() });
export type LunaSource = z.infer<typeof LunaSource>;

export const LunaAnswer = z.object({
  /** Markdown; code in fenced blocks */
  response: z.string(),
  type: z.enum(['text', 'code']),
  sources: z.array(LunaSource),
  answeredBy: z.enum(['retrieval', 'model']),
});
export type LunaAnswer = z.infer<typeof LunaAnswer>;
