import { describe, expect, it } from 'vitest';
import {
  CHANNEL_PRICES,
  COMPARISON_VOLUMES,
  ENTERPRISE_COMPETITORS,
  ENTERPRISE_EXAMPLE_MONTHLY_VERIFICATIONS,
  ENTERPRISE_PLANS,
  ENTERPRISE_UPTIME_TIERS,
  LANDING_PLANS,
  LOW_BALANCE_THRESHOLD_PAISE,
  MIN_PAYMENT_PAISE,
  PAISE_PER_VERIFICATION,
  ROI_SLIDER,
  TOP_UP_PACKS,
  USD_MICROS_PER_VERIFICATION,
  USD_PER_VERIFICATION,
  bestSavingsPercent,
  channelSavings,
  effectiveUsdMicrosPerVerification,
  effectiveUsdPerVerification,
  formatCount,
  formatCountIndian,
  formatDuration,
  formatRupees,
  formatUptime,
  formatUsd,
  getTopUpPack,
  monthlyComparison,
  monthlyDowntimeSeconds,
  paiseForVerifications,
  paiseToDecimalString,
  parseRupeesToPaise,
  roiSavings,
  rupeesToPaise,
  planBonusPercent,
  savingsPercent,
  snapRoiVolume,
  uptimeTierFor,
  verificationsForPaise,
} from './pricing';

describe('core constants', () => {
  it('prices one verification at 10 paise and sets ₹100 limits', () => {
    expect(PAISE_PER_VERIFICATION).toBe(10);
    expect(MIN_PAYMENT_PAISE).toBe(10_000);
    expect(LOW_BALANCE_THRESHOLD_PAISE).toBe(10_000);
    expect(verificationsForPaise(MIN_PAYMENT_PAISE)).toBe(1_000);
  });
});

describe('rupeesToPaise / verificationsForPaise / paiseForVerifications', () => {
  it('converts whole rupees to paise', () => {
    expect(rupeesToPaise(0)).toBe(0);
    expect(rupeesToPaise(5_000)).toBe(500_000);
    expect(() => rupeesToPaise(1.5)).toThrow(RangeError);
  });

  it('floors to whole verifications and never goes negative', () => {
    expect(verificationsForPaise(0)).toBe(0);
    expect(verificationsForPaise(9)).toBe(0);
    expect(verificationsForPaise(10)).toBe(1);
    expect(verificationsForPaise(19)).toBe(1);
    expect(verificationsForPaise(12_345)).toBe(1_234);
    expect(verificationsForPaise(500_000)).toBe(50_000);
    expect(verificationsForPaise(-50)).toBe(0);
  });

  it('rejects non-integer and unsafe amounts', () => {
    expect(() => verificationsForPaise(10.5)).toThrow(RangeError);
    expect(() => verificationsForPaise(Number.NaN)).toThrow(RangeError);
    expect(() => verificationsForPaise(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
  });

  it('prices verifications and round-trips with verificationsForPaise', () => {
    expect(paiseForVerifications(0)).toBe(0);
    expect(paiseForVerifications(1)).toBe(10);
    expect(paiseForVerifications(1_000_000)).toBe(10_000_000);
    expect(() => paiseForVerifications(-1)).toThrow(RangeError);
    for (const n of [0, 1, 7, 999, 123_456]) {
      expect(verificationsForPaise(paiseForVerifications(n))).toBe(n);
    }
  });
});

describe('paiseToDecimalString', () => {
  it('always writes two decimal places', () => {
    expect(paiseToDecimalString(0)).toBe('0.00');
    expect(paiseToDecimalString(5)).toBe('0.05');
    expect(paiseToDecimalString(10)).toBe('0.10');
    expect(paiseToDecimalString(12_340)).toBe('123.40');
    expect(paiseToDecimalString(500_000)).toBe('5000.00');
    expect(paiseToDecimalString(-5)).toBe('-0.05');
    expect(paiseToDecimalString(-12_345)).toBe('-123.45');
  });

  it('rejects fractions of a paisa', () => {
    expect(() => paiseToDecimalString(0.5)).toThrow(RangeError);
  });
});

describe('parseRupeesToPaise', () => {
  it('parses decimal rupee strings exactly', () => {
    expect(parseRupeesToPaise('123.40')).toBe(12_340);
    expect(parseRupeesToPaise('123.4')).toBe(12_340);
    expect(parseRupeesToPaise('0.10')).toBe(10);
    expect(parseRupeesToPaise('100')).toBe(10_000);
    expect(parseRupeesToPaise(' 5000.00 ')).toBe(500_000);
  });

  it('refuses anything that is not a plain non-negative amount', () => {
    for (const bad of ['', '.5', '1.', '1.234', '-1', '+1', '1e3', 'abc', '1,000', '99999999999999999999']) {
      expect(parseRupeesToPaise(bad)).toBeNull();
    }
  });

  it('round-trips with paiseToDecimalString', () => {
    for (const p of [0, 1, 10, 99, 100, 12_340, 987_654_321]) {
      expect(parseRupeesToPaise(paiseToDecimalString(p))).toBe(p);
    }
  });
});

describe('formatRupees', () => {
  it('drops .00 on whole rupees and keeps paise otherwise', () => {
    expect(formatRupees(500_000)).toBe('₹5,000');
    expect(formatRupees(10)).toBe('₹0.10');
    expect(formatRupees(12_340)).toBe('₹123.40');
    expect(formatRupees(0)).toBe('₹0');
    expect(formatRupees(100)).toBe('₹1');
  });

  it('groups digits the Indian way', () => {
    expect(formatRupees(99_900)).toBe('₹999');
    expect(formatRupees(100_000)).toBe('₹1,000');
    expect(formatRupees(10_000_000)).toBe('₹1,00,000');
    expect(formatRupees(25_000_000)).toBe('₹2,50,000');
    expect(formatRupees(1_234_567_890)).toBe('₹1,23,45,678.90');
  });

  it('can always show decimals, and signs negatives', () => {
    expect(formatRupees(500_000, { decimals: 'always' })).toBe('₹5,000.00');
    expect(formatRupees(-12_340)).toBe('-₹123.40');
  });

  it('rejects non-integers', () => {
    expect(() => formatRupees(0.1)).toThrow(RangeError);
  });
});

describe('count formatting', () => {
  it('groups counts Indian and Western style', () => {
    expect(formatCountIndian(100_000)).toBe('1,00,000');
    expect(formatCountIndian(999)).toBe('999');
    expect(formatCount(1_000_000)).toBe('1,000,000');
    expect(formatCount(27_500)).toBe('27,500');
    expect(formatCount(-1_500)).toBe('-1,500');
  });
});

describe('top-up packs', () => {
  it('holds the four packs of the catalogue with Basic as the popular one', () => {
    expect(TOP_UP_PACKS.map((p) => [p.id, p.name, p.amountPaise, p.verifications, p.popular])).toEqual([
      ['basic', 'Basic', 500_000, 50_000, true],
      ['standard', 'Standard', 1_000_000, 100_000, false],
      ['premium', 'Premium', 1_500_000, 150_000, false],
      ['enterprise', 'Enterprise', 2_000_000, 200_000, false],
    ]);
  });

  it('prices every pack at exactly ₹0.10 per verification, above the minimum payment', () => {
    for (const p of TOP_UP_PACKS) {
      expect(p.verifications * PAISE_PER_VERIFICATION).toBe(p.amountPaise);
      expect(p.amountPaise).toBeGreaterThanOrEqual(MIN_PAYMENT_PAISE);
      expect(p.description.length).toBeGreaterThan(0);
    }
    expect(TOP_UP_PACKS.filter((p) => p.popular)).toHaveLength(1);
  });

  it('finds packs by id', () => {
    expect(getTopUpPack('premium')?.amountPaise).toBe(1_500_000);
    expect(getTopUpPack('gold')).toBeUndefined();
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(TOP_UP_PACKS)).toBe(true);
  });
});

describe('landing plans', () => {
  it('uses the no-bonus rule: Developer ₹1,000 → 10,000 and Business ₹5,000 → 50,000', () => {
    const byId = Object.fromEntries(LANDING_PLANS.map((p) => [p.id, p]));
    expect(byId.developer?.amountPaise).toBe(100_000);
    expect(byId.developer?.verifications).toBe(10_000);
    expect(byId.business?.amountPaise).toBe(500_000);
    expect(byId.business?.verifications).toBe(50_000);
    expect(byId.business?.featured).toBe(true);
    expect(byId.enterprise?.amountPaise).toBeNull();
  });

  it('agrees with the top-up packs (Business = Basic pack)', () => {
    const business = LANDING_PLANS.find((p) => p.id === 'business');
    expect(business?.amountPaise).toBe(getTopUpPack('basic')?.amountPaise);
    expect(business?.verifications).toBe(getTopUpPack('basic')?.verifications);
  });

  it('prices every priced plan exactly at ₹0.10 per verification', () => {
    for (const p of LANDING_PLANS) {
      if (p.amountPaise === null) continue;
      expect(p.verifications).toBe(verificationsForPaise(p.amountPaise));
      expect(p.amountPaise % PAISE_PER_VERIFICATION).toBe(0);
    }
  });

  it('sends sign-ups to /api/login and custom plans to /contact', () => {
    for (const p of LANDING_PLANS) {
      expect(p.cta.href).toBe(p.amountPaise === null ? '/contact' : '/api/login');
    }
  });
});

describe('savingsPercent', () => {
  it('computes whole percentages, rounded down', () => {
    expect(savingsPercent(10, 25)).toBe(60);
    expect(savingsPercent(10, 20)).toBe(50);
    expect(savingsPercent(10, 12)).toBe(16); // 16.67 → 16, never overstated
    expect(savingsPercent(10, 14)).toBe(28); // 28.57 → 28
    expect(savingsPercent(3_800, 50_000)).toBe(92); // 92.4
  });

  it('is 0 when we are not cheaper or the other price is zero', () => {
    expect(savingsPercent(10, 10)).toBe(0);
    expect(savingsPercent(10, 5)).toBe(0);
    expect(savingsPercent(10, 0)).toBe(0);
  });
});

describe('SMS / WhatsApp comparison', () => {
  it('states typical Indian list prices as integer paise ranges', () => {
    const sms = CHANNEL_PRICES.find((c) => c.id === 'sms');
    const wa = CHANNEL_PRICES.find((c) => c.id === 'whatsapp');
    expect([sms?.lowPaise, sms?.highPaise]).toEqual([20, 25]);
    expect([wa?.lowPaise, wa?.highPaise]).toEqual([12, 14]);
    for (const c of CHANNEL_PRICES) {
      expect(Number.isInteger(c.lowPaise) && Number.isInteger(c.highPaise)).toBe(true);
      expect(c.lowPaise).toBeLessThanOrEqual(c.highPaise);
      expect(c.lowPaise).toBeGreaterThan(PAISE_PER_VERIFICATION);
    }
  });

  it('computes per-verification savings ranges from those prices', () => {
    const byId = Object.fromEntries(channelSavings().map((s) => [s.channel.id, s]));
    expect([byId.sms?.percentLow, byId.sms?.percentHigh]).toEqual([50, 60]);
    expect([byId.whatsapp?.percentLow, byId.whatsapp?.percentHigh]).toEqual([16, 28]);
  });

  it('compares monthly costs at the landing volumes', () => {
    expect(COMPARISON_VOLUMES).toEqual([10_000, 100_000, 1_000_000]);
    const m = monthlyComparison(100_000);
    expect(m.sixdigitPaise).toBe(1_000_000); // ₹10,000
    const sms = m.channels.find((c) => c.channel.id === 'sms');
    expect(sms).toMatchObject({
      lowPaise: 2_000_000,
      highPaise: 2_500_000,
      savingLowPaise: 1_000_000,
      savingHighPaise: 1_500_000,
      percentLow: 50,
      percentHigh: 60,
    });
    const wa = m.channels.find((c) => c.channel.id === 'whatsapp');
    expect(wa).toMatchObject({ lowPaise: 1_200_000, highPaise: 1_400_000, savingLowPaise: 200_000, savingHighPaise: 400_000 });
  });

  it('is zero for zero volume and refuses negative volume', () => {
    const zero = monthlyComparison(0);
    expect(zero.sixdigitPaise).toBe(0);
    expect(zero.channels.every((c) => c.highPaise === 0 && c.percentHigh === 0)).toBe(true);
    expect(() => monthlyComparison(-1)).toThrow(RangeError);
  });
});

describe('enterprise (USD) figures', () => {
  it('quotes $0.0038 per verification and two competitors', () => {
    expect(USD_PER_VERIFICATION).toBe(0.0038);
    expect(USD_MICROS_PER_VERIFICATION / 1_000_000).toBe(USD_PER_VERIFICATION);
    expect(ENTERPRISE_COMPETITORS.map((c) => c.usdPerVerification)).toEqual([0.05, 0.023]);
    for (const c of ENTERPRISE_COMPETITORS) {
      expect(c.usdMicrosPerVerification / 1_000_000).toBe(c.usdPerVerification);
    }
  });

  it('has the Developer, Business (+10% bonus) and custom Enterprise plans', () => {
    const byId = Object.fromEntries(ENTERPRISE_PLANS.map((p) => [p.id, p]));
    expect(byId.developer).toMatchObject({ priceUsdMicros: 19_000_000, verifications: 5_000 });
    expect(byId.business).toMatchObject({
      priceUsdMicros: 99_000_000,
      includedVerifications: 25_000,
      bonusVerifications: 2_500,
      verifications: 27_500,
    });
    expect(byId.enterprise?.priceUsdMicros).toBeNull();
    for (const p of ENTERPRISE_PLANS) {
      if (p.verifications !== null) expect(p.verifications).toBe((p.includedVerifications ?? 0) + p.bonusVerifications);
    }
  });

  it('computes effective prices per verification', () => {
    const [developer, business, enterprise] = ENTERPRISE_PLANS;
    expect(effectiveUsdPerVerification(developer!)).toBeCloseTo(0.0038, 10);
    expect(effectiveUsdPerVerification(business!)).toBeCloseTo(0.0036, 10);
    expect(effectiveUsdPerVerification(enterprise!)).toBeNull();
  });

  it('formats dollars', () => {
    expect(formatUsd(19_000_000)).toBe('$19');
    expect(formatUsd(3_800)).toBe('$0.0038');
    expect(formatUsd(50_000)).toBe('$0.05');
    expect(formatUsd(23_000)).toBe('$0.023');
    expect(formatUsd(46_200_000_000)).toBe('$46,200');
    expect(formatUsd(1_500_000)).toBe('$1.50');
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(999_999)).toBe('$1'); // rounds to 4 places, carrying
    expect(formatUsd(-3_800)).toBe('-$0.0038');
  });
});

describe('roiSavings', () => {
  it('reproduces the fixed 1,000,000-a-month example', () => {
    const r = roiSavings(1_000_000);
    expect(r.sixdigitMonthlyUsdMicros).toBe(3_800_000_000); // $3,800
    expect(r.sixdigitAnnualUsdMicros).toBe(45_600_000_000);
    const [a, b] = r.competitors;
    expect(a).toMatchObject({
      monthlyCostUsdMicros: 50_000_000_000,
      monthlySavingsUsdMicros: 46_200_000_000,
      annualSavingsUsdMicros: 554_400_000_000,
      savingsPercent: 92,
    });
    expect(b).toMatchObject({
      monthlyCostUsdMicros: 23_000_000_000,
      monthlySavingsUsdMicros: 19_200_000_000,
      annualSavingsUsdMicros: 230_400_000_000,
      savingsPercent: 83,
    });
    expect(formatUsd(a!.monthlySavingsUsdMicros)).toBe('$46,200');
  });

  it('is zero for zero volume and scales linearly', () => {
    expect(roiSavings(0).competitors.every((c) => c.monthlySavingsUsdMicros === 0)).toBe(true);
    const one = roiSavings(1).competitors[0]!.monthlySavingsUsdMicros;
    expect(roiSavings(12_345).competitors[0]!.monthlySavingsUsdMicros).toBe(one * 12_345);
  });

  it('rejects negative or fractional volumes', () => {
    expect(() => roiSavings(-1)).toThrow(RangeError);
    expect(() => roiSavings(1.5)).toThrow(RangeError);
  });
});

describe('enterprise pages: example, slider, plans and uptime', () => {
  it('fixes the landing example at 1,000,000 a month and the slider at 10k–10M, step 10k, default 1M', () => {
    expect(ENTERPRISE_EXAMPLE_MONTHLY_VERIFICATIONS).toBe(1_000_000);
    expect(ROI_SLIDER).toEqual({ min: 10_000, max: 10_000_000, step: 10_000, defaultValue: 1_000_000 });
    expect((ROI_SLIDER.max - ROI_SLIDER.min) % ROI_SLIDER.step).toBe(0);
  });

  it('snaps slider values into the range, on a step', () => {
    expect(snapRoiVolume(0)).toBe(10_000);
    expect(snapRoiVolume(99_999_999)).toBe(10_000_000);
    expect(snapRoiVolume(1_234_567)).toBe(1_230_000);
    expect(snapRoiVolume(1_235_000)).toBe(1_240_000);
    expect(snapRoiVolume(Number.NaN)).toBe(1_000_000);
  });

  it('computes the slider figures at 10k, 1M and 10M', () => {
    const at = (n: number) => {
      const r = roiSavings(n);
      return [r.sixdigitMonthlyUsdMicros, ...r.competitors.flatMap((c) => [c.monthlyCostUsdMicros, c.monthlySavingsUsdMicros])].map(formatUsd);
    };
    expect(at(10_000)).toEqual(['$38', '$500', '$462', '$230', '$192']);
    expect(at(1_000_000)).toEqual(['$3,800', '$50,000', '$46,200', '$23,000', '$19,200']);
    expect(at(10_000_000)).toEqual(['$38,000', '$500,000', '$462,000', '$230,000', '$192,000']);
  });

  it('states the Business bonus as 10% and no bonus elsewhere', () => {
    expect(ENTERPRISE_PLANS.map(planBonusPercent)).toEqual([0, 10, 0]);
  });

  it('claims "save up to 92%" from the dearer competitor, rounded down', () => {
    expect(bestSavingsPercent()).toBe(92);
  });

  it('prices plans per verification exactly: Developer $0.0038, Business $0.0036', () => {
    expect(ENTERPRISE_PLANS.map((p) => effectiveUsdMicrosPerVerification(p))).toEqual([3_800, 3_600, null]);
    expect(formatUsd(effectiveUsdMicrosPerVerification(ENTERPRISE_PLANS[1]!)!)).toBe('$0.0036');
  });

  it('has one uptime tier per plan: 99.9, 99.95 and 99.99 %, with the downtime each allows', () => {
    expect(ENTERPRISE_PLANS.map((p) => formatUptime(uptimeTierFor(p.id).basisPoints))).toEqual(['99.9%', '99.95%', '99.99%']);
    expect(ENTERPRISE_UPTIME_TIERS.map((t) => formatDuration(monthlyDowntimeSeconds(t.basisPoints)))).toEqual(['43 min 12 s', '21 min 36 s', '4 min 19 s']);
    expect(formatUptime(10_000)).toBe('100%');
    expect(formatDuration(60)).toBe('1 min');
    expect(formatDuration(59)).toBe('59 s');
  });
});
