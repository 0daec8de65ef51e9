/**
 * Indian GST for receipts (issue 22, item 3): the state codes, GSTIN validation and the one rule
 * that splits a GST-inclusive amount into taxable value and tax. Pure: the server prints what
 * this answers, the dashboard validates with it, and the tests pin it to the paisa.
 */

/** GST state and union territory codes (the first two digits of a GSTIN), as the GST portal lists them. */
export const GST_STATES = [
  { code: '01', name: 'Jammu and Kashmir' },
  { code: '02', name: 'Himachal Pradesh' },
  { code: '03', name: 'Punjab' },
  { code: '04', name: 'Chandigarh' },
  { code: '05', name: 'Uttarakhand' },
  { code: '06', name: 'Haryana' },
  { code: '07', name: 'Delhi' },
  { code: '08', name: 'Rajasthan' },
  { code: '09', name: 'Uttar Pradesh' },
  { code: '10', name: 'Bihar' },
  { code: '11', name: 'Sikkim' },
  { code: '12', name: 'Arunachal Pradesh' },
  { code: '13', name: 'Nagaland' },
  { code: '14', name: 'Manipur' },
  { code: '15', name: 'Mizoram' },
  { code: '16', name: 'Tripura' },
  { code: '17', name: 'Meghalaya' },
  { code: '18', name: 'Assam' },
  { code: '19', name: 'West Bengal' },
  { code: '20', name: 'Jharkhand' },
  { code: '21', name: 'Odisha' },
  { code: '22', name: 'Chhattisgarh' },
  { code: '23', name: 'Madhya Pradesh' },
  { code: '24', name: 'Gujarat' },
  { code: '26', name: 'Dadra and Nagar Haveli and Daman and Diu' },
  { code: '27', name: 'Maharashtra' },
  { code: '29', name: 'Karnataka' },
  { code: '30', name: 'Goa' },
  { code: '31', name: 'Lakshadweep' },
  { code: '32', name: 'Kerala' },
  { code: '33', name: 'Tamil Nadu' },
  { code: '34', name: 'Puducherry' },
  { code: '35', name: 'Andaman and Nicobar Islands' },
  { code: '36', name: 'Telangana' },
  { code: '37', name: 'Andhra Pradesh' },
  { code: '38', name: 'Ladakh' },
  { code: '97', name: 'Other Territory' },
] as const;

export type GstStateCode = (typeof GST_STATES)[number]['code'];

const STATE_NAMES: ReadonlyMap<string, string> = new Map(GST_STATES.map((s) => [s.code, s.name]));

export function isGstStateCode(code: string): code is GstStateCode {
  return STATE_NAMES.has(code);
}

/** "29 · Karnataka", or undefined for an unknown code. */
export function gstStateName(code: string | null | undefined): string | undefined {
  return code ? STATE_NAMES.get(code) : undefined;
}

/** The standard rate for IT services; CGST and SGST are half each. */
export const GST_RATE_PERCENT = 18;

const GSTIN_SHAPE = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The 15th character of a GSTIN from its first 14 (the GSTN's mod-36 check, factors 1 and 2 alternating). */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = BASE36.indexOf(first14[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return BASE36[(36 - (sum % 36)) % 36]!;
}

export type GstinProblem = 'format' | 'state' | 'checksum';

/** Why a GSTIN (already upper-cased and trimmed) is not valid, or undefined when it is. */
export function gstinProblem(gstin: string): GstinProblem | undefined {
  if (!GSTIN_SHAPE.test(gstin)) return 'format';
  if (!isGstStateCode(gstin.slice(0, 2))) return 'state';
  if (gstinCheckCharacter(gstin.slice(0, 14)) !== gstin[14]) return 'checksum';
  return undefined;
}

export const GSTIN_MESSAGES: Record<GstinProblem, string> = {
  format: 'A GSTIN has 15 characters: 2-digit state code, 10-character PAN, entity number, Z and a check character (e.g. 29ABCDE1234F1Z5).',
  state: 'The GSTIN does not start with a known GST state code.',
  checksum: 'The GSTIN’s last character does not match the others: check it for a typo.',
};

/** Upper-cases and drops spaces, so "29abcde 1234f1z5" is read as typed. */
export function normaliseGstin(input: string): string {
  return input.replace(/\s+/g, '').toUpperCase();
}

export interface TaxSplit {
  /** true: a tax invoice (the payee is GST-registered); false: a plain receipt, no tax lines */
  taxInvoice: boolean;
  /** intra-state (CGST + SGST) or inter-state (IGST); null on a plain receipt */
  supply: 'intra_state' | 'inter_state' | null;
  taxablePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
}

/** Rounds a non-negative numerator / denominator to the nearest integer, halves up, in integers. */
function divideRounded(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/**
 * Splits a GST-inclusive amount (integer paise). Without a payee state (no PAYEE_GSTIN) there is
 * no tax: a plain receipt. Same state → CGST 9% + SGST 9%; another state, or a buyer who gave no
 * state (place of supply unknown) → IGST 18%. Each tax is rounded to the paisa from the
 * inclusive amount and the taxable value is what remains, so the lines always add up to the
 * amount paid and CGST equals SGST; each tax is within 0.59 paisa of its rate × the taxable value
 * (1.18 × the half paisa of rounding; the tests check every amount up to ₹10,000).
 */
export function splitGst(input: { amountPaise: number; payeeState: string | null | undefined; buyerState: string | null | undefined }): TaxSplit {
  const { amountPaise, payeeState, buyerState } = input;
  if (!Number.isSafeInteger(amountPaise) || amountPaise < 0) throw new RangeError('amountPaise must be a non-negative integer');
  if (!payeeState) return { taxInvoice: false, supply: null, taxablePaise: amountPaise, cgstPaise: 0, sgstPaise: 0, igstPaise: 0 };
  const inclusive = 100 + GST_RATE_PERCENT;
  if (buyerState === payeeState) {
    const half = divideRounded(amountPaise * (GST_RATE_PERCENT / 2), inclusive);
    return { taxInvoice: true, supply: 'intra_state', taxablePaise: amountPaise - 2 * half, cgstPaise: half, sgstPaise: half, igstPaise: 0 };
  }
  const igst = divideRounded(amountPaise * GST_RATE_PERCENT, inclusive);
  return { taxInvoice: true, supply: 'inter_state', taxablePaise: amountPaise - igst, cgstPaise: 0, sgstPaise: 0, igstPaise: igst };
}

/** India's financial year (April–March) of an instant, in IST: "2026-27". */
export function indianFinancialYear(at: Date): string {
  const ist = new Date(at.getTime() + (5 * 60 + 30) * 60_000);
  const year = ist.getUTCMonth() >= 3 ? ist.getUTCFullYear() : ist.getUTCFullYear() - 1;
  return `${year}-${String((year + 1) % 100).padStart(2, '0')}`;
}
