/**
 * Luna's code answers use the site's one set of samples (common/samples, executed by its test),
 * filled with the asker's real base URL and key PREFIX: the full key is never known to the
 * server (only its hash), so it is never shown.
 */
import { API_KEY_PLACEHOLDER, renderSample, SAMPLE_LANGUAGES, type SampleLanguage } from '@common/samples';

export const LANGUAGES = SAMPLE_LANGUAGES;
export type Language = SampleLanguage;

export interface SampleContext {
  /** e.g. https://sixdigit.example/api/v1 */
  baseUrl: string;
  /** e.g. sk_live_AbC1 — rendered as sk_live_AbC1… for the asker to complete */
  keyPrefix: string | null;
}

export function verifySample(language: Language, ctx: SampleContext): string {
  return renderSample('verify', language, { baseUrl: ctx.baseUrl, apiKey: ctx.keyPrefix ? `${ctx.keyPrefix}…` : API_KEY_PLACEHOLDER });
}
