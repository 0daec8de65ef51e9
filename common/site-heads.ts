import { PAISE_PER_VERIFICATION, USD_MICROS_PER_VERIFICATION, formatRupees, formatUsd } from './pricing';

/**
 * The home page's title and description of each site variant: what the server writes into
 * index.html for "/", and what the app puts back when a page that set its own head is left
 * (so leaving a blog post for the landing page does not keep the post's title).
 */
export interface SiteHead {
  title: string;
  description: string;
}

const perVerification = formatRupees(PAISE_PER_VERIFICATION);
const perVerificationUsd = formatUsd(USD_MICROS_PER_VERIFICATION);

export const SITE_DEFAULT_HEADS: Readonly<Record<'main' | 'enterprise', SiteHead>> = Object.freeze({
  main: {
    title: `Sixdigit — TOTP verification API at ${perVerification} per verification`,
    description: `Prepaid TOTP verification API at ${perVerification} per verification — a cheaper, more secure alternative to SMS and WhatsApp codes, plus a free personal authenticator.`,
  },
  enterprise: {
    title: `Sixdigit Enterprise — TOTP verification API at ${perVerificationUsd} per verification`,
    description: `Enterprise TOTP verification at ${perVerificationUsd} per verification: RFC 6238 codes, signed webhooks, audit logs and plans from a free trial to custom volume.`,
  },
});

/** /payment-methods (server page head and the page itself). */
export const PAYMENT_METHODS_HEAD: SiteHead = Object.freeze({
  title: 'Payment methods — bank transfer, UPI and card · Sixdigit',
  description: `How to buy Sixdigit verification credits at ${perVerification} each: bank transfer or UPI reviewed within business hours, and card/UPI checkout where enabled. Packs, minimum amount and approval times.`,
});
