import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode } from './index';

describe('base32', () => {
  it('round-trips bytes of every length', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255);
      expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    }
    expect(base32Encode(new TextEncoder().encode('Hello!\u00de'))).toMatch(/^JBSWY3DPEH/);
  });
});
