import { describe, expect, it } from 'vitest';
import { SecretBox, sha256Hex } from './crypto';

const box = new SecretBox(Buffer.alloc(32, 3).toString('base64'));

describe('SecretBox (AES-256-GCM)', () => {
  it('round-trips unicode and never stores the plaintext', () => {
    const blob = box.encrypt('JBSWY3DPEHPK3PXP – ключ 🔑');
    expect(blob).toMatch(/^v1:/);
    expect(blob).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.decrypt(blob)).toBe('JBSWY3DPEHPK3PXP – ключ 🔑');
  });

  it('uses a fresh IV each time', () => {
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('refuses a tampered ciphertext, a wrong key and a wrong associated-data binding', () => {
    const blob = box.encrypt('secret', 'user_1');
    const parts = blob.split(':');
    const body = Buffer.from(parts[3]!, 'base64');
    body[0] = body[0]! ^ 1;
    expect(() => box.decrypt([...parts.slice(0, 3), body.toString('base64')].join(':'), 'user_1')).toThrow();
    expect(() => new SecretBox(Buffer.alloc(32, 4).toString('base64')).decrypt(blob, 'user_1')).toThrow();
    expect(() => box.decrypt(blob, 'user_2')).toThrow();
  });

  it('derives distinct purpose keys deterministically', () => {
    expect(box.deriveKey('a').equals(box.deriveKey('a'))).toBe(true);
    expect(box.deriveKey('a').equals(box.deriveKey('b'))).toBe(false);
  });

  it('hashes with SHA-256', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
