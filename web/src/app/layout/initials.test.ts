import { describe, expect, it } from 'vitest';
import { userInitials } from './initials';

describe('userInitials', () => {
  it('uses the first letters of first and last name, upper-cased', () => {
    expect(userInitials({ firstName: 'ada', lastName: 'lovelace', email: 'ada@example.com' })).toBe('AL');
  });

  it('ignores surrounding whitespace in names', () => {
    expect(userInitials({ firstName: '  grace ', lastName: ' hopper' })).toBe('GH');
  });

  it('falls back to the first letter of the e-mail when a name part is missing', () => {
    expect(userInitials({ firstName: 'Ada', lastName: null, email: 'zed@example.com' })).toBe('Z');
    expect(userInitials({ firstName: '', lastName: 'Hopper', email: 'grace@example.com' })).toBe('G');
  });

  it('falls back to "U" when there is neither a full name nor an e-mail', () => {
    expect(userInitials({})).toBe('U');
    expect(userInitials({ firstName: 'Ada', email: '   ' })).toBe('U');
  });

  it('keeps characters outside the basic plane whole', () => {
    expect(userInitials({ firstName: '𝒜da', lastName: 'Ωmega' })).toBe('𝒜Ω');
  });
});
