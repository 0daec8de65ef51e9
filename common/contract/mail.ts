/** E-mail preferences (/api/user/email-preferences) and signed-out unsubscribe links (/api/mail/unsubscribe). */
import { z } from 'zod';

/**
 * What the product e-mails about. A person may turn off the `optional` ones (their mails carry
 * List-Unsubscribe); the others are part of using the account and always sent.
 */
export const MAIL_CATEGORIES = {
  payments: { optional: true, label: 'Payments', description: 'Top-ups submitted, approved or rejected, card payments credited, and auto-refill charges, failures and top-up requests.' },
  balance: { optional: true, label: 'Balance alerts', description: 'When the balance falls under the low-balance threshold (at most once a day) or runs out.' },
  webhooks: { optional: true, label: 'Webhook problems', description: 'When an endpoint is switched off after a day of failed deliveries.' },
  contact: { optional: false, label: 'Your messages to us', description: 'The acknowledgement of a message you send us, and our answer.' },
  security: { optional: false, label: 'Security notices', description: 'Sign-ins from a new device, second factor and passkey changes, backup codes, impersonation. Always sent.' },
} as const;
export type MailCategory = keyof typeof MAIL_CATEGORIES;
export const OPTIONAL_MAIL_CATEGORIES = (Object.keys(MAIL_CATEGORIES) as MailCategory[]).filter((c) => MAIL_CATEGORIES[c].optional);
export const OptionalMailCategory = z.enum(OPTIONAL_MAIL_CATEGORIES as [MailCategory, ...MailCategory[]]);

export const EmailPreference = z.object({
  category: OptionalMailCategory,
  label: z.string(),
  description: z.string(),
  enabled: z.boolean(),
});
export type EmailPreference = z.infer<typeof EmailPreference>;
export const EmailPreferences = z.object({
  email: z.string(),
  preferences: z.array(EmailPreference),
  /** what is always sent, for the page to say so */
  alwaysSent: z.array(z.object({ label: z.string(), description: z.string() })),
});
export type EmailPreferences = z.infer<typeof EmailPreferences>;
export const UpdateEmailPreferenceBody = z.object({ category: OptionalMailCategory, enabled: z.boolean() });
export type UpdateEmailPreferenceBody = z.infer<typeof UpdateEmailPreferenceBody>;

/** An unsubscribe link's token (signed, see server/src/features/mail/unsubscribe.ts). */
export const UnsubscribeToken = z.string().min(10).max(300).regex(/^[A-Za-z0-9_.-]+$/);
export const UnsubscribeQuery = z.object({ token: UnsubscribeToken });
export const UnsubscribeBody = z.object({ token: UnsubscribeToken, enabled: z.boolean() });
/** What a signed-out unsubscribe page may show: the category and a masked address, nothing else. */
export const UnsubscribeState = z.object({
  category: OptionalMailCategory,
  label: z.string(),
  description: z.string(),
  maskedEmail: z.string(),
  enabled: z.boolean(),
});
export type UnsubscribeState = z.infer<typeof UnsubscribeState>;
export const OneClickParams = z.object({ token: UnsubscribeToken });
