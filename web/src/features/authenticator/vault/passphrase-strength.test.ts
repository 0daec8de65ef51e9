import { describe, expect, it } from 'vitest';
import { passphraseStrength } from './passphrase-strength';

describe('passphraseStrength', () => {
  it('grades short, repetitive, word-based and random passphrases', () => {
    expect(passphraseStrength('short').level).toBe('too-short');
    expect(passphraseStrength('aaaaaaaaaaaaaaaa').level).toBe('weak');
    expect(passphraseStrength('password12').level).toBe('weak');
    expect(passphraseStrength('violet harbor ladder mint').level).toBe('fair');
    expect(passphraseStrength('violet harbor ladder mint kettle').level).toBe('strong');
    expect(passphraseStrength('Xk9#mQ2$vL7!pR4&').level).toBe('strong');
  });
});
