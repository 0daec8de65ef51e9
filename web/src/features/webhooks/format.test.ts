import { describe, expect, it } from 'vitest';
import { deliveryBadge, formatMs } from './format';

describe('deliveryBadge (SPEC §4)', () => {
  it.each([
    [null, 'Pending'],
    [200, 'Success'],
    [201, 'Success'],
    [204, 'Success'],
    [299, 'Success'],
    [400, 'Client Error'],
    [404, 'Client Error'],
    [410, 'Client Error'],
    [499, 'Client Error'],
    [500, 'Server Error'],
    [503, 'Server Error'],
    [599, 'Server Error'],
    [600, 'Server Error'],
    [100, 'Unknown'],
    [199, 'Unknown'],
    [300, 'Unknown'],
    [302, 'Unknown'],
    [399, 'Unknown'],
    [0, 'Unknown'],
  ] as const)('%s → %s', (status, label) => {
    expect(deliveryBadge(status).label).toBe(label);
  });

  it('says "No response" (not Pending) for an attempt that got no answer at all', () => {
    expect(deliveryBadge(null, 'timed out after 10000 ms')).toMatchObject({ kind: 'no-response', label: 'No response' });
    expect(deliveryBadge(null, null).label).toBe('Pending');
    expect(deliveryBadge(null, '').label).toBe('Pending');
    // A status wins over an error text.
    expect(deliveryBadge(502, 'bad gateway').label).toBe('Server Error');
  });

  it('uses a different look for each kind, never colour alone (every badge has words)', () => {
    const kinds = [null, 200, 404, 500, 302].map((s) => deliveryBadge(s));
    expect(new Set(kinds.map((k) => `${k.variant}|${k.className ?? ''}`)).size).toBe(5);
    expect(kinds.every((k) => k.label.length > 0)).toBe(true);
  });
});

describe('formatMs', () => {
  it('rounds long times and keeps one decimal for short ones', () => {
    expect(formatMs(null)).toBe('—');
    expect(formatMs(12)).toBe('12 ms');
    expect(formatMs(3.14159)).toBe('3.1 ms');
    expect(formatMs(300.4)).toBe('300 ms');
  });
});
