import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVALID_QR_MESSAGE, QR_NOT_FOUND_MESSAGE } from './index';

describe('the module itself', () => {
  it('imports nothing from node: in any module (the browser uses them too)', () => {
    const modules = readdirSync(__dirname, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'test-helpers.ts');
    expect(modules.length).toBeGreaterThanOrEqual(10);
    for (const file of modules) {
      const source = readFileSync(resolve(__dirname, file), 'utf8');
      expect(source, file).not.toMatch(/from ['"]node:/);
      expect(source, file).not.toMatch(/require\(/);
    }
  });

  it('exports the SPEC.md §5/§8 messages word for word', () => {
    expect(INVALID_QR_MESSAGE).toBe("Invalid QR Code: This doesn't appear to be a valid TOTP QR code.");
    expect(QR_NOT_FOUND_MESSAGE).toBe('QR Scan Failed: Could not read QR code from the image. Please try again or enter details manually.');
  });
});
