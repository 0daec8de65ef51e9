import { formatRupees, PAISE_PER_VERIFICATION } from '@common/pricing';
import type { MailCategory } from '@common/contract/mail';
import { button, facts, note, p, quote, type MailContent } from './layout';

/**
 * Every mail the product sends: its category (who may turn it off, see MAIL_CATEGORIES) and one
 * function from its data to its content. The data is stored as JSON in the outbox row and rendered
 * when the mail is sent, so it holds plain values only (numbers in paise, ISO dates).
 * To add a mail: add an entry here; `queueMail` takes its name and its data, type-checked.
 */
export interface TemplateContext {
  /** the installation's public address, for links */
  publicUrl: string;
}

const when = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const verifications = (paise: number) => Math.floor(paise / PAISE_PER_VERIFICATION).toLocaleString('en-IN');

function template<D>(category: MailCategory, render: (data: D, ctx: TemplateContext) => MailContent) {
  return { category, render };
}

export const TEMPLATES = {
  topup_submitted: template<{ reference: string; amountPaise: number; method: string; reviewHours: string }>('payments', (d, ctx) => ({
    subject: `Top-up ${d.reference} received: ${formatRupees(d.amountPaise)}`,
    heading: 'We have your top-up request',
    blocks: [
      facts([
        ['Reference', d.reference],
        ['Amount', formatRupees(d.amountPaise, { decimals: 'always' })],
        ['Method', d.method],
      ]),
      p(`What happens next: our finance desk matches your payment to this reference, usually within ${d.reviewHours}. When it is approved the credits are added to your balance and we e-mail you the receipt; if something does not match, we e-mail you the reason.`),
      button('See your balance', `${ctx.publicUrl}/business`),
    ],
  })),
  topup_approved: template<{ reference: string; amountPaise: number; creditedPaise: number; balancePaise: number; receiptNumber: string }>('payments', (d, ctx) => ({
    subject: `Top-up ${d.reference} approved: ${formatRupees(d.creditedPaise)} added`,
    heading: 'Your top-up is approved',
    blocks: [
      facts([
        ['Reference', d.reference],
        ['Amount paid', formatRupees(d.amountPaise, { decimals: 'always' })],
        ['Credits added', formatRupees(d.creditedPaise, { decimals: 'always' })],
        ['New balance', `${formatRupees(d.balancePaise, { decimals: 'always' })} (${verifications(d.balancePaise)} verifications)`],
        ['Receipt', d.receiptNumber],
      ]),
      p('The credits are in your balance now; your API keys keep working without any change. The receipt is attached as a PDF and stays under payments on your dashboard.'),
      button('Open the dashboard', `${ctx.publicUrl}/business`),
    ],
  })),
  topup_rejected: template<{ reference: string; amountPaise: number; reason: string }>('payments', (d, ctx) => ({
    subject: `Top-up ${d.reference} was not approved`,
    heading: 'We could not approve your top-up',
    blocks: [
      facts([
        ['Reference', d.reference],
        ['Amount', formatRupees(d.amountPaise, { decimals: 'always' })],
      ]),
      p('The finance desk gave this reason:'),
      quote(d.reason),
      p('No credits were added. If you did pay, reply through the contact page with the reference and your bank or UPI transaction id (UTR), and we will look again.'),
      button('Contact us', `${ctx.publicUrl}/contact`),
    ],
  })),
  card_credited: template<{ paymentId: string; amountPaise: number; creditedPaise: number; balancePaise: number; receiptNumber: string }>('payments', (d, ctx) => ({
    subject: `Card payment received: ${formatRupees(d.creditedPaise)} added`,
    heading: 'Your card payment is credited',
    blocks: [
      facts([
        ['Payment', d.paymentId],
        ['Amount paid', formatRupees(d.amountPaise, { decimals: 'always' })],
        ['Credits added', formatRupees(d.creditedPaise, { decimals: 'always' })],
        ['New balance', `${formatRupees(d.balancePaise, { decimals: 'always' })} (${verifications(d.balancePaise)} verifications)`],
        ['Receipt', d.receiptNumber],
      ]),
      p('The receipt is attached as a PDF and stays under payments on your dashboard.'),
      button('Open the dashboard', `${ctx.publicUrl}/business`),
    ],
  })),
  auto_refill_charged: template<{ companyName: string; amountPaise: number; packName: string; thresholdPaise: number; paymentId: string; mandate: string; balancePaise: number }>('payments', (d, ctx) => ({
    subject: `Auto-refill: ${formatRupees(d.amountPaise)} charged to your ${d.mandate}`,
    heading: 'Auto-refill topped up your balance',
    blocks: [
      p(`${d.companyName}'s balance fell below your auto-refill threshold of ${formatRupees(d.thresholdPaise)}, so we charged your saved ${d.mandate} once for the ${d.packName} pack.`),
      facts([
        ['Amount', formatRupees(d.amountPaise, { decimals: 'always' })],
        ['Payment', d.paymentId],
        ['New balance', `${formatRupees(d.balancePaise, { decimals: 'always' })} (${verifications(d.balancePaise)} verifications)`],
      ]),
      p('The receipt for this payment is in the payment e-mail and under payments on your dashboard.'),
      button('Auto-refill settings', `${ctx.publicUrl}/business`),
    ],
  })),
  auto_refill_failed: template<{ companyName: string; amountPaise: number; reason: string }>('payments', (d, ctx) => ({
    subject: `Auto-refill is off: the ${formatRupees(d.amountPaise)} charge failed`,
    heading: 'We switched auto-refill off',
    blocks: [
      p(`Auto-refill for ${d.companyName} tried to top up ${formatRupees(d.amountPaise)} and could not:`),
      quote(d.reason),
      p('Nothing was charged and auto-refill is off, so nothing more will be tried. Save a card or UPI mandate that works, or top up by bank transfer or UPI, and turn auto-refill on again in the dashboard.'),
      button('Open the dashboard', `${ctx.publicUrl}/business`),
    ],
  })),
  auto_refill_request: template<{ companyName: string; reference: string; amountPaise: number; packName: string; thresholdPaise: number; upiId: string; payeeName: string; bankDetails: string | null; expiresAt: string }>('payments', (d, ctx) => ({
    subject: `Auto-refill: please pay ${formatRupees(d.amountPaise)} (reference ${d.reference})`,
    heading: 'Your balance is below your auto-refill threshold',
    blocks: [
      p(`${d.companyName}'s balance fell below ${formatRupees(d.thresholdPaise)}. Here is your top-up request for the ${d.packName} pack: pay it by UPI (scan the attached QR code) or bank transfer, quoting the reference.`),
      facts([
        ['Amount', formatRupees(d.amountPaise, { decimals: 'always' })],
        ['Reference', d.reference],
        ['UPI id', d.upiId],
        ['Payee', d.payeeName],
        ...(d.bankDetails ? ([['Bank account', d.bankDetails]] as Array<[string, string]>) : []),
        ['Valid until', when(d.expiresAt)],
      ]),
      p('After paying, submit the bank transaction id (UTR) on the auto-refill card of your dashboard; the finance desk credits it after matching it with the bank statement. Nothing is charged automatically, and no new request is made while this one is open.'),
      button('Open the dashboard', `${ctx.publicUrl}/business`),
    ],
  })),
  balance_low: template<{ companyName: string; balancePaise: number; thresholdPaise: number }>('balance', (d, ctx) => ({
    subject: `Low balance: ${formatRupees(d.balancePaise)} left for ${d.companyName}`,
    heading: 'Your balance is running low',
    blocks: [
      p(`${d.companyName} has ${formatRupees(d.balancePaise, { decimals: 'always' })} left, under your threshold of ${formatRupees(d.thresholdPaise)}: about ${verifications(d.balancePaise)} more verifications.`),
      p('When the balance reaches zero, verifications are refused with 402 until you top up.'),
      button('Add credits', `${ctx.publicUrl}/business`),
      note('We send this at most once a day, when the balance first falls under the threshold.'),
    ],
  })),
  balance_depleted: template<{ companyName: string }>('balance', (d, ctx) => ({
    subject: `${d.companyName}: balance used up, verifications are refused`,
    heading: 'Your balance has run out',
    blocks: [
      p(`${d.companyName} has no credits left. Every verification is answered 402 insufficient_credits until you top up.`),
      button('Add credits', `${ctx.publicUrl}/business`),
    ],
  })),
  webhook_disabled: template<{ url: string; reason: string }>('webhooks', (d, ctx) => ({
    subject: 'A webhook endpoint was switched off',
    heading: 'We switched off a failing webhook endpoint',
    blocks: [
      facts([['Endpoint', d.url]]),
      p(d.reason),
      p('No more events are sent to it. When it works again, switch it back on in the dashboard; the delivery log shows every attempt and lets you resend.'),
      button('Open webhooks', `${ctx.publicUrl}/business`),
    ],
  })),
  contact_received: template<{ reference: string; subject: string; signedIn: boolean }>('contact', (d, ctx) => ({
    subject: `We received your message (${d.reference})`,
    heading: 'Thank you for writing to us',
    blocks: [
      facts([
        ['Reference', d.reference],
        ['Subject', d.subject],
      ]),
      p(
        d.signedIn
          ? 'Our answer will be on the contact page of your account, under this reference.'
          : 'We will e-mail our answer to this address. You can also read it on the contact page with the reference above.',
      ),
      button('Open the contact page', `${ctx.publicUrl}/contact`),
    ],
  })),
  contact_answer: template<{ reference: string; subject: string; answer: string; from: 'luna' | 'desk' }>('contact', (d, ctx) => ({
    subject: `Re: ${d.subject} (${d.reference})`,
    heading: d.from === 'luna' ? 'An answer to your message' : 'Our answer to your message',
    blocks: [
      facts([['Reference', d.reference]]),
      quote(d.answer),
      ...(d.from === 'luna' ? [note('This answer was drafted by Luna, our assistant, from the product documentation. If it does not help, write again and a person will answer.')] : []),
      button('Open the contact page', `${ctx.publicUrl}/contact`),
    ],
  })),
  impersonated: template<{ adminEmail: string; reason: string | null; startedAt: string; endedAt: string }>('security', (d, ctx) => ({
    subject: 'An administrator viewed your account',
    heading: 'An administrator acted as you',
    blocks: [
      facts([
        ['Administrator', d.adminEmail],
        ['From', when(d.startedAt)],
        ['Until', when(d.endedAt)],
        ['Reason', d.reason ?? '(none given)'],
      ]),
      p('While impersonating, nobody can see keys, codes or secrets, or move money. Every action was recorded in the audit log.'),
      button('Review your account', `${ctx.publicUrl}/`),
    ],
  })),
  second_factor_changed: template<{ enabled: boolean; at: string }>('security', (d, ctx) => ({
    subject: d.enabled ? 'Two-step sign-in is on' : 'Two-step sign-in was turned off',
    heading: d.enabled ? 'Two-step sign-in is now on' : 'Two-step sign-in is now off',
    blocks: [
      p(
        d.enabled
          ? `From ${when(d.at)} every sign-in to your account asks for a code from your authenticator app (or a backup code or passkey).`
          : `At ${when(d.at)} the second step was removed from your account: a sign-in now needs only your sign-in provider.`,
      ),
      note('If this was not you, sign in, sign out every other device on the account page and turn two-step sign-in back on.'),
      button('Open account security', `${ctx.publicUrl}/totp`),
    ],
  })),
  passkey_changed: template<{ action: 'added' | 'removed'; name: string; at: string }>('security', (d, ctx) => ({
    subject: d.action === 'added' ? `Passkey added: ${d.name}` : `Passkey removed: ${d.name}`,
    heading: d.action === 'added' ? 'A passkey was added to your account' : 'A passkey was removed from your account',
    blocks: [
      facts([
        ['Passkey', d.name],
        ['When', when(d.at)],
      ]),
      note('If this was not you, sign in, remove passkeys you do not recognise and sign out every other device.'),
      button('Open account security', `${ctx.publicUrl}/totp`),
    ],
  })),
  backup_codes_regenerated: template<{ at: string }>('security', (d, ctx) => ({
    subject: 'New backup codes were made for your account',
    heading: 'Your backup codes were replaced',
    blocks: [
      p(`At ${when(d.at)} a new set of backup codes was made; the earlier codes no longer work.`),
      note('If this was not you, sign in and make new codes, and sign out every other device.'),
      button('Open account security', `${ctx.publicUrl}/totp`),
    ],
  })),
  new_device_sign_in: template<{ at: string; ipAddress: string | null; device: string }>('security', (d, ctx) => ({
    subject: 'New sign-in to your Sixdigit account',
    heading: 'A new device signed in',
    blocks: [
      facts([
        ['When', when(d.at)],
        ['Device', d.device],
        ['Address', d.ipAddress ?? 'unknown'],
      ]),
      note('If this was you, there is nothing to do. If not, sign out that device on the account page and check your sign-in provider.'),
      button('See signed-in devices', `${ctx.publicUrl}/totp`),
    ],
  })),
} as const;

export type TemplateName = keyof typeof TEMPLATES;
export type TemplateData<T extends TemplateName> = Parameters<(typeof TEMPLATES)[T]['render']>[0];
