/** The contact desk: senders' /api/contact* and the desk's /api/financial/{contact-messages,escalate-message,close-message}. */
import { z } from 'zod';
import { isoDateTime, storableText } from './shared';

export const CONTACT_CATEGORIES = ['general', 'technical', 'payment', 'refund'] as const;
export const ContactCategory = z.enum(CONTACT_CATEGORIES);
export type ContactCategory = z.infer<typeof ContactCategory>;
export const ContactStatus = z.enum(['open', 'assigned_to_luna', 'escalated', 'closed']);
export type ContactStatus = z.infer<typeof ContactStatus>;
export const EscalationTarget = z.enum(['luna', 'admin']);

export const ContactMessage = z.object({
  id: z.string(),
  reference: z.string(),
  category: ContactCategory,
  subject: z.string(),
  message: z.string(),
  status: ContactStatus,
  escalatedTo: EscalationTarget.nullable(),
  lunaResponse: z.string().nullable(),
  resolution: z.string().nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  closedAt: isoDateTime.nullable(),
});
export type ContactMessage = z.infer<typeof ContactMessage>;

/** What the desk sees of a message: the sender too, and how urgent it is. */
export const DeskMessage = ContactMessage.extend({
  email: z.string(),
  companyName: z.string().nullable(),
  userId: z.string().nullable(),
  priority: z.enum(['urgent', 'normal']),
});
export type DeskMessage = z.infer<typeof DeskMessage>;

export const SendContactBody = z.object({
  email: z.email('email: enter a valid e-mail address.').max(320).optional(),
  category: ContactCategory.default('general'),
  subject: storableText().trim().min(1, 'Missing information - Please fill in subject and message').max(200),
  message: storableText().trim().min(1, 'Missing information - Please fill in subject and message').max(5000),
});
export type SendContactInput = z.input<typeof SendContactBody>;
export const SentContact = z.object({ message: ContactMessage, reference: z.string() });
export type SentContact = z.infer<typeof SentContact>;

export const MyMessages = z.object({ messages: z.array(ContactMessage) });
export type MyMessages = z.infer<typeof MyMessages>;

export const ContactStatusQuery = z.object({ reference: z.string().trim().min(1).max(20), email: z.string().trim().min(3).max(320) });
export const ContactStatusAnswer = z.object({ message: ContactMessage });
export type ContactStatusAnswer = z.infer<typeof ContactStatusAnswer>;

// --- the desk's side ---------------------------------------------------------------------------

export const DeskMessagesQuery = z.object({ status: z.enum(['all', 'active', 'open', 'assigned_to_luna', 'escalated', 'closed']).default('all') });
export const DeskMessages = z.object({ messages: z.array(DeskMessage) });
export type DeskMessages = z.infer<typeof DeskMessages>;
export const EscalateBody = z.object({ escalationType: EscalationTarget });
export type EscalateInput = z.infer<typeof EscalateBody>;
export const CloseBody = z.object({ resolution: storableText().trim().min(1, 'resolution: say how it was resolved.').max(2000) });
/** escalate and close answer the message as it is now */
export const DeskMessageAnswer = z.object({ message: DeskMessage });
export type DeskMessageAnswer = z.infer<typeof DeskMessageAnswer>;
