import { describe, expect, it } from 'vitest';
import { GST_STATES, gstinCheckCharacter, gstinProblem, indianFinancialYear, normaliseGstin, splitGst } from './gst';

describe('GSTIN validation', () => {
  it('accepts a published GSTIN whose check character the GSTN computed (27AAPFU0939F1ZV)', () => {
    expect(gstinCheckCharacter('27AAPFU0939F1Z')).toBe('V');
    expect(gstinProblem('27AAPFU0939F1ZV')).toBeUndefined();
  });

  it('refuses a GSTIN with one character changed, by its checksum', () => {
    expect(gstinProblem('27AAPFU0939F1ZW')).toBe('checksum');
    expect(gstinProblem('27AAPFU0938F1ZV')).toBe('checksum');
  });

  it('refuses wrong shapes and unknown state codes', () => {
    expect(gstinProblem('27AAPFU0939F1Z')).toBe('format');
    expect(gstinProblem('27aapfu0939f1zv')).toBe('format');
    expect(gstinProblem('27AAPFU0939F1XV')).toBe('format');
    const unknownState = `99AAPFU0939F1Z`;
    expect(gstinProblem(unknownState + gstinCheckCharacter(unknownState))).toBe('state');
  });

  it('reads a GSTIN typed in lower case with spaces', () => {
    expect(normaliseGstin(' 27aapfu 0939f1zv ')).toBe('27AAPFU0939F1ZV');
  });

  it('knows each state code once', () => {
    expect(new Set(GST_STATES.map((s) => s.code)).size).toBe(GST_STATES.length);
  });
});

describe('splitGst', () => {
  it('same state: ₹5,000.00 is ₹4,237.28 taxable + CGST ₹381.36 + SGST ₹381.36', () => {
    expect(splitGst({ amountPaise: 500_000, payeeState: '29', buyerState: '29' })).toEqual({
      taxInvoice: true,
      supply: 'intra_state',
      taxablePaise: 423_728,
      cgstPaise: 38_136,
      sgstPaise: 38_136,
      igstPaise: 0,
    });
  });

  it('other state: ₹5,000.00 is ₹4,237.29 taxable + IGST ₹762.71', () => {
    expect(splitGst({ amountPaise: 500_000, payeeState: '29', buyerState: '27' })).toEqual({
      taxInvoice: true,
      supply: 'inter_state',
      taxablePaise: 423_729,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 76_271,
    });
  });

  it('a buyer without a state is charged IGST (place of supply not in the payee’s state)', () => {
    expect(splitGst({ amountPaise: 100_000, payeeState: '07', buyerState: null })).toMatchObject({ supply: 'inter_state', taxablePaise: 84_746, igstPaise: 15_254 });
  });

  it('no payee GSTIN: a plain receipt without tax lines', () => {
    expect(splitGst({ amountPaise: 500_000, payeeState: undefined, buyerState: '29' })).toEqual({
      taxInvoice: false,
      supply: null,
      taxablePaise: 500_000,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 0,
    });
  });

  it('for every amount up to ₹10,000 the lines add up exactly and each tax is its rate of the taxable value to within 0.59 paisa (1.18 × the half paisa rounded)', () => {
    for (let amount = 0; amount <= 1_000_000; amount += 1) {
      const intra = splitGst({ amountPaise: amount, payeeState: '29', buyerState: '29' });
      const inter = splitGst({ amountPaise: amount, payeeState: '29', buyerState: '33' });
      if (intra.taxablePaise + intra.cgstPaise + intra.sgstPaise !== amount) throw new Error(`intra ${amount} does not add up`);
      if (inter.taxablePaise + inter.igstPaise !== amount) throw new Error(`inter ${amount} does not add up`);
      if (Math.abs(intra.cgstPaise - intra.taxablePaise * 0.09) > 0.59 + 1e-9) throw new Error(`CGST of ${amount} off by more than 0.59 paisa`);
      if (Math.abs(inter.igstPaise - inter.taxablePaise * 0.18) > 0.59 + 1e-9) throw new Error(`IGST of ${amount} off by more than 0.59 paisa`);
    }
  });

  it('refuses fractional or negative paise', () => {
    expect(() => splitGst({ amountPaise: 10.5, payeeState: '29', buyerState: '29' })).toThrow(RangeError);
    expect(() => splitGst({ amountPaise: -1, payeeState: '29', buyerState: '29' })).toThrow(RangeError);
  });
});

describe('indianFinancialYear', () => {
  it('turns over at midnight IST between 31 March and 1 April', () => {
    expect(indianFinancialYear(new Date('2027-03-31T18:29:59.999Z'))).toBe('2026-27');
    expect(indianFinancialYear(new Date('2027-03-31T18:30:00.000Z'))).toBe('2027-28');
    expect(indianFinancialYear(new Date('2026-11-25T12:00:00Z'))).toBe('2026-27');
    expect(indianFinancialYear(new Date('2099-06-01T00:00:00Z'))).toBe('2099-00');
  });
});
