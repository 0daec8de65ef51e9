/**
 * A rough strength hint for a vault passphrase (not a policy beyond the minimum): the passphrase
 * is the only thing between a stolen copy of the vault and offline guessing, slowed by Argon2id.
 */
export const MIN_PASSPHRASE_LENGTH = 10;

export type Strength = { level: 'too-short' | 'weak' | 'fair' | 'strong'; hint: string };

export function passphraseStrength(passphrase: string): Strength {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH) return { level: 'too-short', hint: `At least ${MIN_PASSPHRASE_LENGTH} characters.` };
  const words = passphrase.trim().split(/\s+/).filter((w) => w.length >= 3).length;
  if (/\s/.test(passphrase.trim())) {
    // Words: each unrelated word is worth ~13 bits (a 10 000-word vocabulary), whatever its letters.
    if (words >= 5) return { level: 'strong', hint: 'Strong.' };
    if (words >= 4) return { level: 'fair', hint: 'Fair: a fifth unrelated word makes it strong.' };
    return { level: 'weak', hint: 'Weak: use four or more unrelated words.' };
  }
  let pool = 0;
  if (/[a-z]/.test(passphrase)) pool += 26;
  if (/[A-Z]/.test(passphrase)) pool += 26;
  if (/\d/.test(passphrase)) pool += 10;
  if (/[^A-Za-z0-9]/.test(passphrase)) pool += 33;
  const distinct = new Set(passphrase).size;
  // Bits from the characters, capped by how varied they are.
  const bits = Math.min(passphrase.length, distinct * 2) * Math.log2(Math.max(pool, 2));
  if (bits >= 80) return { level: 'strong', hint: 'Strong.' };
  if (bits >= 55) return { level: 'fair', hint: 'Fair: more length makes it strong.' };
  return { level: 'weak', hint: 'Weak: use four or more unrelated words.' };
}
