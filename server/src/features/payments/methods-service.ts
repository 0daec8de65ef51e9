import { PAISE_PER_VERIFICATION, TOP_UP_PACKS, paiseToDecimalString } from '@common/pricing';
import type { Config } from '../../config';
import type { PaymentMethods } from '@common/contract/payments';
import { autoRefillMode } from '../autorefill/service';
import { paymentConfig } from './service';

/** When the finance desk reviews bank/UPI payments (SPEC §9). */
export const MANUAL_REVIEW = Object.freeze({ minHours: 2, maxHours: 4, days: 'Monday–Friday', hours: '9 AM–6 PM', timeZone: 'IST' });

/**
 * The public /payment-methods page's facts, from the same configuration and catalogue the top-up
 * page uses (paymentConfig, TOP_UP_PACKS). Never the Razorpay key secret; no payee at all when
 * bank/UPI top-ups are not offered.
 */
export function paymentMethods(config: Config): PaymentMethods {
  const base = paymentConfig(config);
  const { payee } = config;
  return {
    currency: 'INR',
    pricePerVerification: paiseToDecimalString(PAISE_PER_VERIFICATION),
    minimumAmount: base.minimumAmount,
    packs: TOP_UP_PACKS.map((p) => ({
      id: p.id,
      name: p.name,
      amount: paiseToDecimalString(p.amountPaise),
      verifications: p.verifications,
      popular: p.popular,
      description: p.description,
    })),
    bankTransfer: {
      available: base.bankQr,
      demo: base.demo,
      payee: base.bankQr ? { upiId: payee.upiId, name: payee.name, bankDetails: payee.bankDetails || null } : null,
      referenceValidDays: base.referenceValidDays,
    },
    card: { available: base.razorpay },
    autoRefill: { mode: autoRefillMode(config) },
    review: { ...MANUAL_REVIEW },
  };
}
