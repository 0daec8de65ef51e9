import type { AppContext } from '../../context';
import type { CurrentUser } from '../auth/service';
import type { LunaAnswer } from '@common/contract/luna';
import { retrievalAnswer } from './engine';
import { draftWithModel, openAiCompatible, type ModelClient } from './model';

const models = new WeakMap<AppContext['config'], ModelClient>();

function modelFor(ctx: AppContext): ModelClient | undefined {
  const llm = ctx.config.lunaLlm;
  if (!llm) return undefined;
  let model = models.get(ctx.config);
  if (!model) {
    model = openAiCompatible(llm);
    models.set(ctx.config, model);
  }
  return model;
}

/** Luna's answer to one question: retrieval always, the configured model on top when there is one. */
export async function answer(ctx: AppContext, user: CurrentUser | null, question: string, log?: (err: unknown) => void): Promise<LunaAnswer> {
  const grounding = await retrievalAnswer(ctx, user, question);
  const model = modelFor(ctx);
  if (!model) return grounding.draft;
  return draftWithModel(model, grounding, (err) => log?.(err));
}
