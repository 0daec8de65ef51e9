import type { LunaAnswer, LunaSource } from '@common/contract/luna';
import type { AppContext } from '../../context';
import type { CurrentUser } from '../auth/service';
import { accountFacts, type AccountFacts } from './facts';
import { knowledge, type DocSection } from './knowledge';
import { escapeMarkdown, markdownCode } from './markdown';
import { LANGUAGES, verifySample, type Language } from './samples';

/** What a retrieval answer is built from; the optional model drafts over the same material. */
export interface Grounding {
  question: string;
  facts: AccountFacts | null;
  sections: DocSection[];
  draft: LunaAnswer;
}

const source = (s: DocSection): LunaSource => ({ title: s.title, section: s.section });
const STATUS_MEANING: Record<string, string> = {
  invalid_code: 'the code did not match — usually a typo, or the wrong account in the authenticator',
  expired: "the code was valid a few time steps away from now — the user's phone clock is probably off, or the code was old",
  replayed: 'that code (or a later one) had already been accepted for this user; each code works once',
};
const ERROR_CODE_BY_STATUS: Record<string, string> = {
  '400': 'validation_failed',
  '401': 'unauthorized',
  '402': 'insufficient_credits',
  '403': 'suspended',
  '404': 'not_found',
  '409': 'conflict',
  '413': 'payload_too_large',
  '429': 'rate_limited',
};
const LANGUAGE_WORDS: Array<[RegExp, Language]> = [
  [/\bpython\b|\bdjango\b|\bflask\b/i, 'python'],
  [/\bphp\b|\blaravel\b/i, 'php'],
  [/\bjavascript\b|\bnode(\.js)?\b|\bjs\b|\btypescript\b|\bfetch\b/i, 'javascript'],
  [/\bcurl\b|\bshell\b|\bbash\b/i, 'curl'],
];
const I_DONT_KNOW =
  "I don't know the answer to that one, and I'd rather not guess. You can open a message on the **Contact** page (/contact): technical questions are answered at once, payments within 2–4 hours.";

const fence = (language: Language, code: string) => `\`\`\`${language === 'curl' ? 'bash' : language}\n${code}\n\`\`\``;

function balanceAnswer(facts: AccountFacts | null): string {
  if (!facts) return "You don't have a business account yet, so there is no balance. Create one on **/business** to get an API key and credits.";
  const lines = [`**${escapeMarkdown(facts.businessName)}** has a balance of **₹${facts.balance}**, enough for **${facts.verificationsLeft.toLocaleString('en-IN')} verifications** at ₹0.10 each.`];
  if (Number(facts.balance) < 100) lines.push('That is below ₹100: top up on **/business/add-credits** before checks start answering 402.');
  if (facts.pendingPayments.length) {
    lines.push(`You have ${facts.pendingPayments.length} payment${facts.pendingPayments.length > 1 ? 's' : ''} waiting for approval: ${facts.pendingPayments.map((p) => `₹${p.amount} (reference ${escapeMarkdown(p.reference)})`).join(', ')}.`);
  }
  return lines.join('\n\n');
}

function failureAnswer(facts: AccountFacts | null): string {
  if (!facts) return "You don't have a business account yet, so there are no verifications to look at.";
  if (!facts.lastCheck) return 'Your API key has not verified any code yet. Send a code to `POST /api/v1/verify` and ask me again.';
  const failure = facts.recentFailures[0];
  if (!failure) return `Your recent verifications all succeeded — the last one, at ${facts.lastCheck.at}, was **verified**.`;
  const who = failure.userId ? ` for user ${markdownCode(failure.userId)}` : '';
  return [
    `Your last failed verification${who} (at ${failure.at}) answered **${failure.status}**: ${STATUS_MEANING[failure.status] ?? 'see the statuses below'}.`,
    facts.recentFailures.length > 1 ? `Recent failures: ${facts.recentFailures.map((f) => f.status).join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

function keyAnswer(facts: AccountFacts | null): string {
  if (!facts) return 'Create a business account on **/business** to get an API key.';
  if (!facts.apiKey) return 'Your business has no active API key. Regenerate one on **/business**.';
  return `Your API key starts with ${markdownCode(facts.apiKey.prefix)}. ${facts.apiKey.lastUsedAt ? `It was last used at ${facts.apiKey.lastUsedAt}.` : 'It has not been used yet.'} The full key was shown once; if you lost it, regenerate it on /business (the old key stops working at once).`;
}

function webhookFailureAnswer(facts: AccountFacts | null): string | null {
  if (!facts || facts.webhookFailures.length === 0) return null;
  const f = facts.webhookFailures[0]!;
  return `Your latest failed webhook delivery: ${markdownCode(f.event)} to ${markdownCode(f.url)} ${f.status ? `got HTTP ${f.status}` : `failed (${escapeMarkdown(f.error ?? 'no response')})`} at ${f.at}. Your endpoint must answer 2xx within 10 seconds.`;
}

/**
 * Answers from the documentation and the asker's own account, with no outside service.
 * Intents cover what people ask most; everything else goes to full-text retrieval, and a
 * question that retrieval cannot place gets an honest "I don't know".
 */
export async function retrievalAnswer(ctx: AppContext, user: CurrentUser | null, question: string): Promise<Grounding> {
  const docs = knowledge();
  const q = question.trim();
  const lower = q.toLowerCase();
  const facts = user ? await accountFacts(ctx, user) : null;
  const done = (response: string, sections: DocSection[], type: LunaAnswer['type'] = 'text'): Grounding => ({
    question: q,
    facts,
    sections,
    draft: { response, type, sources: sections.map(source), answeredBy: 'retrieval' },
  });

  // Code in a language: one template per language, with the asker's base URL and key prefix.
  const wantsCode = /\b(code|sample|snippet|example|show me|integrat|how do i call|in)\b/i.test(q);
  const language = LANGUAGE_WORDS.find(([re]) => re.test(q))?.[1];
  if (language && wantsCode) {
    const ctxSample = { baseUrl: `${ctx.config.publicUrl}/api/v1`, keyPrefix: facts?.apiKey?.prefix ?? null };
    const verifySection = docs.byHeading('Verify a code (POST /verify)');
    return done(
      `Here is how to verify a code in ${language === 'curl' ? 'cURL' : language[0]!.toUpperCase() + language.slice(1)}. Use your full API key (it starts with ${markdownCode(ctxSample.keyPrefix ?? 'sk_live_')}) from an environment variable on your server:\n\n${fence(language, verifySample(language, ctxSample))}\n\n\`verified\` is true only for status \`verified\`; other statuses are \`invalid_code\`, \`expired\` and \`replayed\`.`,
      [verifySection],
      'code',
    );
  }
  if (/\b(generate code|code sample|sample code|integrat)/i.test(lower) && !language) {
    const ctxSample = { baseUrl: `${ctx.config.publicUrl}/api/v1`, keyPrefix: facts?.apiKey?.prefix ?? null };
    return done(
      `To integrate: enrol each user once with \`POST /generate\`, show them the QR code, then check their codes with \`POST /verify\`:\n\n${fence('curl', verifySample('curl', ctxSample))}\n\nAsk me for ${LANGUAGES.filter((l) => l !== 'curl').join(', ')} and I'll show the same call in that language.`,
      [docs.byHeading('Enrol a user (POST /generate)'), docs.byHeading('Verify a code (POST /verify)')],
      'code',
    );
  }

  // The asker's own account.
  if (/\b(balance|credits?|how much|verifications left)\b/i.test(lower) && !/\b(buy|top.?up|add|pay)\b/i.test(lower)) {
    return done(balanceAnswer(facts), [docs.byHeading('Price')]);
  }
  if (/\b(why|last|recent)\b.*\b(fail|failed|failing|invalid|expired|replayed|not verif)/i.test(lower) || /\btroubleshoot/i.test(lower)) {
    const webhook = /webhook/i.test(lower) ? webhookFailureAnswer(facts) : null;
    return done(webhook ?? failureAnswer(facts), [docs.byHeading('Verification statuses')]);
  }
  if (/\b(my|our)\b.*\b(api )?key\b/i.test(lower)) return done(keyAnswer(facts), [docs.byHeading('Authentication and base URL')]);
  if (/webhook/i.test(lower) && /\b(fail|failing|not receiv|didn.?t get|missing)/i.test(lower)) {
    const webhook = webhookFailureAnswer(facts);
    const section = docs.byHeading('Delivery and retries');
    return done(webhook ? `${webhook}\n\n${section.text}` : `I see no failed deliveries on your account. ${section.text}`, [section]);
  }

  // An HTTP status or error code.
  const status = /\b(4\d\d)\b/.exec(lower)?.[1];
  const code = (status && ERROR_CODE_BY_STATUS[status]) ?? Object.values(ERROR_CODE_BY_STATUS).find((c) => lower.includes(c)) ?? (/\btoo_many_attempts\b/.test(lower) ? 'too_many_attempts' : undefined);
  if (code) {
    const errors = docs.byHeading('Errors');
    const line = errors.text.split('\n').find((l) => l.includes(`\`${code}\``) && (!status || l.includes(status)));
    if (line) return done(line.replace(/^- /, ''), [errors]);
  }

  // Everything else: the documentation section that matches best, if any matches well.
  const [best] = docs.search(q, 1);
  if (!best || best.score < 8) return done(I_DONT_KNOW, []);
  return done(best.section.text, [best.section]);
}

export { I_DONT_KNOW };
