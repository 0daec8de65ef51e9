import { describe, expect, it } from 'vitest';
import { FIGURE_THRESHOLDS, formatFigure, publicFigures, roundDownReadable } from './site-figures';

describe('roundDownReadable', () => {
  it.each([
    [0, 0],
    [7, 7],
    [99, 99],
    [100, 100],
    [987, 980],
    [1_000, 1_000],
    [1_299, 1_200],
    [12_345, 12_000],
    [99_999, 99_000],
    [2_512_345, 2_500_000],
    [2_599_999, 2_500_000],
    [1_234_567_890, 1_200_000_000],
  ])('%i → %i (never up)', (count, rounded) => {
    expect(roundDownReadable(count)).toBe(rounded);
    expect(roundDownReadable(count)).toBeLessThanOrEqual(count);
  });

  it('treats nonsense as nothing', () => {
    expect(roundDownReadable(-5)).toBe(0);
    expect(roundDownReadable(Number.NaN)).toBe(0);
  });
});

describe('formatFigure', () => {
  it.each([
    [980, '980+'],
    [12_000, '12,000+'],
    [990_000, '990,000+'],
    [1_000_000, '1M+'],
    [2_500_000, '2.5M+'],
    [25_000_000, '25M+'],
    [1_200_000_000, '1.2B+'],
  ])('%i reads "%s"', (rounded, text) => {
    expect(formatFigure(rounded)).toBe(text);
  });
});

describe('publicFigures', () => {
  it('leaves a figure out below its threshold and rounds the rest down', () => {
    expect(publicFigures({ verifications: FIGURE_THRESHOLDS.verifications - 1, businesses: FIGURE_THRESHOLDS.businesses - 1 })).toEqual({ verifications: null, businesses: null });
    expect(publicFigures({ verifications: 12_345, businesses: 523 })).toEqual({ verifications: 12_000, businesses: 520 });
    expect(publicFigures({ verifications: FIGURE_THRESHOLDS.verifications, businesses: FIGURE_THRESHOLDS.businesses })).toEqual({ verifications: 10_000, businesses: 50 });
  });
});
