/**
 * Sixdigit's one pricing catalogue (DESIGN.md §7). Every page and the server import their
 * figures from here, so a price is written down exactly once.
 *
 * Money rules (DESIGN.md §2):
 * - Rupee amounts are integer **paise** (1 rupee = 100 paise). Never a float.
 * - One verification costs 10 paise (₹0.10); 1 credit = one verification = ₹0.10.
 * - Balances leave the server as decimal strings (`paiseToDecimalString`, e.g. "123.40").
 * - Dollar amounts (enterprise variant) are integer **micro-dollars** (1 USD = 1,000,000),
 *   so $0.0038 × 27,500 stays exact.
 *
 * PRICING DECISION (DESIGN.md §9, "one consistent price catalogue"): SPEC.md quotes landing
 * plans of "Developer ₹999 for 10,000" and "Business ₹5,000 for 55,000 (10% bonus)" while a
 * feature card and every top-up pack say ₹5,000 = 50,000. We drop the bonus figures and keep
 * one exact rule everywhere in rupees: verifications = amount ÷ ₹0.10, no bonus, no rounding.
 * So the Developer plan is ₹1,000 → 10,000 verifications (round, and exact at ₹0.10, unlike
 * ₹999 → 9,990) and the Business plan is ₹5,000 → 50,000, the same as the Basic top-up pack.
 * Plan and pack verification counts are derived from their amounts, never typed separately.
 *
 * The enterprise (dollar) variant keeps the spec's own published figures, including its
 * Business plan bonus (25,000 + 10% = 27,500 for $99, effective ≈ $0.0036).
 */

// ---------------------------------------------------------------------------------------------
// Core constants (rupees, in paise)
// ---------------------------------------------------------------------------------------------

export const CURRENCY = 'INR' as const;
export const PAISE_PER_RUPEE = 100;
/** One verification (one credit) costs ₹0.10. */
export const PAISE_PER_VERIFICATION = 10;
/** Smallest top-up accepted: ₹100 (= 1,000 verifications). */
export const MIN_PAYMENT_PAISE = 10_000;
/** A balance below ₹100 is "low" (dashboard alert, `credit.low` webhook). */
export const LOW_BALANCE_THRESHOLD_PAISE = 10_000;

function assertSafeInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${what} must be a safe integer, got ${String(value)}`);
  }
}

/** Whole rupees → paise (for writing catalogue figures readably). */
export function rupeesToPaise(rupees: number): number {
  assertSafeInteger(rupees, 'rupees');
  return rupees * PAISE_PER_RUPEE;
}

/** How many verifications a rupee amount buys: floor(paise / 10). Never negative. */
export function verificationsForPaise(paise: number): number {
  assertSafeInteger(paise, 'paise');
  if (paise <= 0) return 0;
  return Math.floor(paise / PAISE_PER_VERIFICATION);
}

/** Cost of a number of verifications, in paise. */
export function paiseForVerifications(verifications: number): number {
  assertSafeInteger(verifications, 'verifications');
  if (verifications < 0) throw new RangeError('verifications must not be negative');
  return verifications * PAISE_PER_VERIFICATION;
}

// ---------------------------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------------------------

/** Groups digits the Indian way: 1234567 → "12,34,567". Expects a string of digits. */
function groupIndian(digits: string): string {
  if (digits.length <= 3) return digits;
  const last3 = digits.slice(-3);
  const rest = digits.slice(0, -3);
  return `${rest.replace(/\B(?=(\d{2})+(?!\d))/g, ',')},${last3}`;
}

/** Groups digits the Western way: 1234567 → "1,234,567". */
function groupWestern(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Paise as a plain decimal string with two places: 12340 → "123.40", -5 → "-0.05". */
export function paiseToDecimalString(paise: number): string {
  assertSafeInteger(paise, 'paise');
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  const rupees = Math.floor(abs / PAISE_PER_RUPEE);
  const rest = abs % PAISE_PER_RUPEE;
  return `${sign}${rupees}.${String(rest).padStart(2, '0')}`;
}

/**
 * Parses a decimal rupee string ("123.4", "123.40", "100") into paise. Returns null for
 * anything else (signs, more than two decimals, exponents, empty strings, unsafe sizes).
 */
export function parseRupeesToPaise(text: string): number | null {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const rupees = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  const paise = rupees * PAISE_PER_RUPEE + fraction;
  return Number.isSafeInteger(paise) ? paise : null;
}

export interface FormatRupeesOptions {
  /** 'auto' (default) drops ".00" on whole rupees; 'always' keeps two decimals. */
  decimals?: 'auto' | 'always';
}

/**
 * Rupees for people, with Indian digit grouping: 500000 → "₹5,000", 10 → "₹0.10",
 * 20000000 → "₹2,00,000", 12340 → "₹123.40".
 */
export function formatRupees(paise: number, options: FormatRupeesOptions = {}): string {
  assertSafeInteger(paise, 'paise');
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  const rupees = Math.floor(abs / PAISE_PER_RUPEE);
  const rest = abs % PAISE_PER_RUPEE;
  const whole = groupIndian(String(rupees));
  const showDecimals = options.decimals === 'always' || rest !== 0;
  return `${sign}₹${whole}${showDecimals ? `.${String(rest).padStart(2, '0')}` : ''}`;
}

/** A count with Indian grouping, as the rupee figures use: 100000 → "1,00,000". */
export function formatCountIndian(count: number): string {
  assertSafeInteger(count, 'count');
  return `${count < 0 ? '-' : ''}${groupIndian(String(Math.abs(count)))}`;
}

/** A count with Western grouping: 1000000 → "1,000,000". */
export function formatCount(count: number): string {
  assertSafeInteger(count, 'count');
  return `${count < 0 ? '-' : ''}${groupWestern(String(Math.abs(count)))}`;
}

// ---------------------------------------------------------------------------------------------
// Top-up packs (Add Credits dialog, bank/UPI page)
// ---------------------------------------------------------------------------------------------

export type TopUpPackId = 'basic' | 'standard' | 'premium' | 'enterprise';

export interface TopUpPack {
  readonly id: TopUpPackId;
  readonly name: string;
  readonly amountPaise: number;
  /** Always verificationsForPaise(amountPaise): no bonus credits anywhere. */
  readonly verifications: number;
  readonly popular: boolean;
  readonly description: string;
}

function pack(id: TopUpPackId, name: string, rupees: number, popular: boolean, description: string): TopUpPack {
  const amountPaise = rupeesToPaise(rupees);
  return { id, name, amountPaise, verifications: verificationsForPaise(amountPaise), popular, description };
}

export const TOP_UP_PACKS: readonly TopUpPack[] = Object.freeze([
  pack('basic', 'Basic', 5_000, true, 'For apps moving their first login flows off SMS.'),
  pack('standard', 'Standard', 10_000, false, 'For steady production traffic across several flows.'),
  pack('premium', 'Premium', 15_000, false, 'For high-volume sign-ins and payment confirmations.'),
  pack('enterprise', 'Enterprise', 20_000, false, 'For large user bases that top up once a quarter.'),
]);

export function getTopUpPack(id: string): TopUpPack | undefined {
  return TOP_UP_PACKS.find((p) => p.id === id);
}

// ---------------------------------------------------------------------------------------------
// Landing-page plans (rupees). See PRICING DECISION at the top of this file.
// ---------------------------------------------------------------------------------------------

export type LandingPlanId = 'developer' | 'business' | 'enterprise';

export interface LandingPlan {
  readonly id: LandingPlanId;
  readonly name: string;
  readonly tagline: string;
  /** null for "custom" plans that are priced by conversation. */
  readonly amountPaise: number | null;
  readonly verifications: number | null;
  readonly featured: boolean;
  readonly features: readonly string[];
  readonly cta: { readonly label: string; readonly href: string };
}

const developerPaise = rupeesToPaise(1_000);
const businessPaise = rupeesToPaise(5_000);
const largestPack = TOP_UP_PACKS[TOP_UP_PACKS.length - 1]!;

/** What auto-refill does on an installation (GET /api/payments/methods → autoRefill.mode). */
export type AutoRefillModeName = 'razorpay' | 'bank' | 'unavailable';

/**
 * The landing's auto-refill promise, exactly as this installation keeps it. `null` is "not known
 * yet" (the server-rendered page, before the browser has asked): true of both modes.
 */
export function autoRefillPlanFeature(mode: AutoRefillModeName | null): string | null {
  if (mode === 'razorpay') return 'Auto-refill: your saved card or UPI mandate is charged when the balance runs low';
  if (mode === 'bank') return 'Auto-refill: a bank/UPI top-up request with its UPI QR when the balance runs low';
  if (mode === 'unavailable') return null;
  return AUTO_REFILL_PLAN_FEATURE;
}
export const AUTO_REFILL_PLAN_FEATURE = 'Auto-refill when the balance runs low: a card/UPI mandate charge or a bank/UPI request';

export function autoRefillFeatureText(mode: AutoRefillModeName | null): string {
  if (mode === 'razorpay') return 'Turn on auto-refill and your saved card or UPI mandate is charged once for your chosen pack when a verification takes the balance below your threshold.';
  if (mode === 'bank') return 'Turn on auto-refill and, when a verification takes the balance below your threshold, you get a bank/UPI top-up request for your chosen pack (reference and UPI QR) to pay. Nothing is charged automatically.';
  if (mode === 'unavailable') return 'A low-balance alert comes before your balance can run out mid-login.';
  return 'Turn on auto-refill and a verification that takes the balance below your threshold starts one top-up of your chosen pack: a charge to your saved card or UPI mandate where card payments are enabled, otherwise a bank/UPI request to pay.';
}

export const LANDING_PLANS: readonly LandingPlan[] = Object.freeze([
  {
    id: 'developer',
    name: 'Developer',
    tagline: 'Ship TOTP in an afternoon and test it with real traffic.',
    amountPaise: developerPaise,
    verifications: verificationsForPaise(developerPaise),
    featured: false,
    features: [
      'Full verification API and API key',
      'Usage dashboard and audit log',
      'Signed webhooks',
      'Bank transfer or UPI top-ups',
    ],
    cta: { label: 'Start building', href: '/api/login' },
  },
  {
    id: 'business',
    name: 'Business',
    tagline: 'For production sign-ins and payment confirmations.',
    amountPaise: businessPaise,
    verifications: verificationsForPaise(businessPaise),
    featured: true,
    features: [
      'Everything in Developer',
      AUTO_REFILL_PLAN_FEATURE,
      'Low-balance alerts by webhook',
      'Usage export (CSV)',
    ],
    cta: { label: 'Get started', href: '/api/login' },
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    tagline: `Packs from ${formatRupees(largestPack.amountPaise)} and a higher rate limit.`,
    amountPaise: null,
    verifications: null,
    featured: false,
    features: [
      'Same ₹0.10 per verification',
      'Raised per-key rate limit',
      'Payment by bank transfer with invoice',
      'Priority support from our team',
    ],
    cta: { label: 'Talk to us', href: '/contact' },
  },
]);

// ---------------------------------------------------------------------------------------------
// SMS / WhatsApp comparison (landing page)
// ---------------------------------------------------------------------------------------------

export type ChannelId = 'sms' | 'whatsapp';

export interface ChannelPrice {
  readonly id: ChannelId;
  readonly name: string;
  /** Typical per-message list price range in India, in paise, before GST. */
  readonly lowPaise: number;
  readonly highPaise: number;
  readonly note: string;
}

/**
 * Typical Indian list prices per one-time-code message (before GST), as published by
 * aggregators and WhatsApp Business Solution Providers. These are typical figures, not a
 * quote from any one provider; negotiated contracts differ. Savings are computed from them.
 */
export const CHANNEL_PRICES: readonly ChannelPrice[] = Object.freeze([
  {
    id: 'sms',
    name: 'SMS OTP',
    lowPaise: 20,
    highPaise: 25,
    note: 'DLT-registered transactional SMS, ₹0.20–₹0.25 per message',
  },
  {
    id: 'whatsapp',
    name: 'WhatsApp OTP',
    lowPaise: 12,
    highPaise: 14,
    note: 'WhatsApp Business authentication template, ₹0.12–₹0.14 per message',
  },
]);

export const COMPARISON_VOLUMES: readonly number[] = Object.freeze([10_000, 100_000, 1_000_000]);

/**
 * How much cheaper `ours` is than `theirs`, as a whole percentage rounded down (so a claim
 * never overstates the saving). 0 when we are not cheaper.
 */
export function savingsPercent(ours: number, theirs: number): number {
  if (!(theirs > 0) || ours >= theirs) return 0;
  return Math.floor(((theirs - ours) * 100) / theirs);
}

export interface ChannelSavings {
  readonly channel: ChannelPrice;
  /** Saving per verification against the cheapest and the dearest typical price. */
  readonly percentLow: number;
  readonly percentHigh: number;
}

/** Per-verification savings of Sixdigit against each channel's typical price range. */
export function channelSavings(): readonly ChannelSavings[] {
  return CHANNEL_PRICES.map((channel) => ({
    channel,
    percentLow: savingsPercent(PAISE_PER_VERIFICATION, channel.lowPaise),
    percentHigh: savingsPercent(PAISE_PER_VERIFICATION, channel.highPaise),
  }));
}

export interface ChannelMonthlyCost {
  readonly channel: ChannelPrice;
  readonly lowPaise: number;
  readonly highPaise: number;
  readonly savingLowPaise: number;
  readonly savingHighPaise: number;
  readonly percentLow: number;
  readonly percentHigh: number;
}

export interface MonthlyComparison {
  readonly verifications: number;
  readonly sixdigitPaise: number;
  readonly channels: readonly ChannelMonthlyCost[];
}

/** Monthly cost of `verifications` codes on SMS, WhatsApp and Sixdigit, in paise. */
export function monthlyComparison(verifications: number): MonthlyComparison {
  const sixdigitPaise = paiseForVerifications(verifications);
  return {
    verifications,
    sixdigitPaise,
    channels: CHANNEL_PRICES.map((channel) => {
      const lowPaise = verifications * channel.lowPaise;
      const highPaise = verifications * channel.highPaise;
      return {
        channel,
        lowPaise,
        highPaise,
        savingLowPaise: Math.max(0, lowPaise - sixdigitPaise),
        savingHighPaise: Math.max(0, highPaise - sixdigitPaise),
        percentLow: savingsPercent(sixdigitPaise, lowPaise),
        percentHigh: savingsPercent(sixdigitPaise, highPaise),
      };
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Enterprise variant (US dollars, in micro-dollars)
// ---------------------------------------------------------------------------------------------

export const MICROS_PER_USD = 1_000_000;
export const USD_PER_VERIFICATION = 0.0038;
export const USD_MICROS_PER_VERIFICATION = 3_800;

export interface Competitor {
  readonly id: 'provider-a' | 'provider-b';
  readonly name: string;
  readonly usdPerVerification: number;
  readonly usdMicrosPerVerification: number;
}

/** Typical published per-verification prices of two verification APIs (named neutrally). */
export const ENTERPRISE_COMPETITORS: readonly Competitor[] = Object.freeze([
  { id: 'provider-a', name: 'Provider A (SMS verification)', usdPerVerification: 0.05, usdMicrosPerVerification: 50_000 },
  { id: 'provider-b', name: 'Provider B (SMS verification)', usdPerVerification: 0.023, usdMicrosPerVerification: 23_000 },
]);

export type EnterprisePlanId = 'developer' | 'business' | 'enterprise';

export interface EnterprisePlan {
  readonly id: EnterprisePlanId;
  readonly name: string;
  /** null for custom pricing. */
  readonly priceUsdMicros: number | null;
  readonly includedVerifications: number | null;
  readonly bonusVerifications: number;
  /** included + bonus; null for custom pricing. */
  readonly verifications: number | null;
  readonly featured: boolean;
}

export const ENTERPRISE_PLANS: readonly EnterprisePlan[] = Object.freeze([
  {
    id: 'developer',
    name: 'Developer',
    priceUsdMicros: 19 * MICROS_PER_USD,
    includedVerifications: 5_000,
    bonusVerifications: 0,
    verifications: 5_000,
    featured: false,
  },
  {
    id: 'business',
    name: 'Business',
    priceUsdMicros: 99 * MICROS_PER_USD,
    includedVerifications: 25_000,
    bonusVerifications: 2_500, // 10% bonus
    verifications: 27_500,
    featured: true,
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    priceUsdMicros: null,
    includedVerifications: null,
    bonusVerifications: 0,
    verifications: null,
    featured: false,
  },
]);

/** Effective dollars per verification of a plan (e.g. Business: $99 / 27,500 = $0.0036). */
export function effectiveUsdPerVerification(plan: EnterprisePlan): number | null {
  if (plan.priceUsdMicros === null || !plan.verifications) return null;
  return plan.priceUsdMicros / plan.verifications / MICROS_PER_USD;
}

/**
 * Dollars for people from micro-dollars: 19000000 → "$19", 3800 → "$0.0038",
 * 46200000000 → "$46,200", 23000 → "$0.023". Shows 2 decimals unless more are needed (max 4).
 */
export function formatUsd(micros: number): string {
  assertSafeInteger(micros, 'micros');
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(micros);
  const dollars = Math.floor(abs / MICROS_PER_USD);
  // Round to 4 decimal places (100 micro-dollars), carrying into the dollars when needed.
  const tenThousandths = Math.round((abs % MICROS_PER_USD) / 100);
  const carry = tenThousandths === 10_000 ? 1 : 0;
  const whole = groupWestern(String(dollars + carry));
  const frac = carry ? 0 : tenThousandths;
  if (frac === 0) return `${sign}$${whole}`;
  let fracText = String(frac).padStart(4, '0').replace(/0+$/, '');
  if (fracText.length < 2) fracText = fracText.padEnd(2, '0');
  return `${sign}$${whole}.${fracText}`;
}

export interface RoiCompetitorSavings {
  readonly competitor: Competitor;
  readonly monthlyCostUsdMicros: number;
  readonly monthlySavingsUsdMicros: number;
  readonly annualSavingsUsdMicros: number;
  readonly savingsPercent: number;
}

export interface RoiResult {
  readonly monthlyVerifications: number;
  readonly sixdigitMonthlyUsdMicros: number;
  readonly sixdigitAnnualUsdMicros: number;
  readonly competitors: readonly RoiCompetitorSavings[];
}

/** ROI calculator: Sixdigit at $0.0038 against each competitor for a monthly volume. */
export function roiSavings(monthlyVerifications: number): RoiResult {
  assertSafeInteger(monthlyVerifications, 'monthlyVerifications');
  if (monthlyVerifications < 0) throw new RangeError('monthlyVerifications must not be negative');
  const ours = monthlyVerifications * USD_MICROS_PER_VERIFICATION;
  return {
    monthlyVerifications,
    sixdigitMonthlyUsdMicros: ours,
    sixdigitAnnualUsdMicros: ours * 12,
    competitors: ENTERPRISE_COMPETITORS.map((competitor) => {
      const theirs = monthlyVerifications * competitor.usdMicrosPerVerification;
      const monthly = Math.max(0, theirs - ours);
      return {
        competitor,
        monthlyCostUsdMicros: theirs,
        monthlySavingsUsdMicros: monthly,
        annualSavingsUsdMicros: monthly * 12,
        savingsPercent: savingsPercent(USD_MICROS_PER_VERIFICATION, competitor.usdMicrosPerVerification),
      };
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Enterprise pages: the fixed example, the ROI slider, plan prices and uptime tiers
// ---------------------------------------------------------------------------------------------

/** The enterprise landing page's fixed cost example (SPEC §2: 1,000,000 a month). */
export const ENTERPRISE_EXAMPLE_MONTHLY_VERIFICATIONS = 1_000_000;

/** The pricing page's ROI slider: 10,000 to 10,000,000 a month in steps of 10,000. */
export const ROI_SLIDER = Object.freeze({ min: 10_000, max: 10_000_000, step: 10_000, defaultValue: 1_000_000 });

/** A slider value made valid: clamped to the range and snapped to the nearest step. */
export function snapRoiVolume(value: number): number {
  if (!Number.isFinite(value)) return ROI_SLIDER.defaultValue;
  const clamped = Math.min(ROI_SLIDER.max, Math.max(ROI_SLIDER.min, value));
  const steps = Math.round((clamped - ROI_SLIDER.min) / ROI_SLIDER.step);
  return ROI_SLIDER.min + steps * ROI_SLIDER.step;
}

/** The largest saving percentage against any competitor (the headline "save up to N%"). */
export function bestSavingsPercent(): number {
  return Math.max(...ENTERPRISE_COMPETITORS.map((c) => savingsPercent(USD_MICROS_PER_VERIFICATION, c.usdMicrosPerVerification)));
}

/** Effective micro-dollars per verification of a priced plan, rounded to the micro-dollar. */
export function effectiveUsdMicrosPerVerification(plan: EnterprisePlan): number | null {
  if (plan.priceUsdMicros === null || !plan.verifications) return null;
  return Math.round(plan.priceUsdMicros / plan.verifications);
}

export interface UptimeTier {
  readonly planId: EnterprisePlanId;
  /** Uptime in basis points of a percent: 9990 = 99.9 %. Integers keep the maths exact. */
  readonly basisPoints: number;
}

/** The uptime each plan is built and monitored for (SPEC §9: 99.9 / 99.95 / 99.99 %). */
export const ENTERPRISE_UPTIME_TIERS: readonly UptimeTier[] = Object.freeze([
  { planId: 'developer', basisPoints: 9_990 },
  { planId: 'business', basisPoints: 9_995 },
  { planId: 'enterprise', basisPoints: 9_999 },
]);

export function uptimeTierFor(planId: EnterprisePlanId): UptimeTier {
  const tier = ENTERPRISE_UPTIME_TIERS.find((t) => t.planId === planId);
  if (!tier) throw new RangeError(`no uptime tier for ${planId}`);
  return tier;
}

/** 9990 → "99.9%", 9995 → "99.95%". */
export function formatUptime(basisPoints: number): string {
  assertSafeInteger(basisPoints, 'basisPoints');
  const whole = Math.floor(basisPoints / 100);
  const frac = String(basisPoints % 100).padStart(2, '0').replace(/0+$/, '');
  return `${whole}${frac ? `.${frac}` : ''}%`;
}

const SECONDS_PER_30_DAY_MONTH = 30 * 24 * 60 * 60;

/** Downtime a tier allows in a 30-day month, in whole seconds: 99.9 % → 2592 s (43 min 12 s). */
export function monthlyDowntimeSeconds(basisPoints: number): number {
  assertSafeInteger(basisPoints, 'basisPoints');
  return Math.floor(((10_000 - basisPoints) * SECONDS_PER_30_DAY_MONTH) / 10_000);
}

/** 2592 → "43 min 12 s", 259 → "4 min 19 s", 60 → "1 min". */
export function formatDuration(seconds: number): string {
  assertSafeInteger(seconds, 'seconds');
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return `${rest} s`;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** A plan's bonus as a whole percentage of what it includes: Business 2,500 / 25,000 → 10. */
export function planBonusPercent(plan: EnterprisePlan): number {
  if (!plan.includedVerifications || plan.bonusVerifications <= 0) return 0;
  return Math.round((plan.bonusVerifications * 100) / plan.includedVerifications);
}
