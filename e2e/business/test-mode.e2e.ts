import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { signInLocally, useE2E, visit } from '../support/harness';
import { expectNoSeriousA11yViolations } from '../support/axe';

const h = useE2E('business/test-mode');

describe('test mode in the dashboard', () => {
  it.each([1280, 390])('at %i px: both keys shown once, a free test check with no balance, the Test switch shows only test data', async (width) => {
    const page = await h.newPage({ width });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.baseUrl });
    const email = `tester-${width}@acme.example`;

    await visit(page, '/business');
    await page.waitForURL('**/api/login?returnTo=%2Fbusiness');
    await signInLocally(page, email, 'Tara Tester');
    await page.waitForURL('**/business');
    await page.getByLabel('Company Name').fill(`Test Mode ${width}`);
    await page.getByRole('button', { name: 'Create Business Account' }).click();
    const reveal = page.getByTestId('api-key-reveal');
    await reveal.waitFor();
    await reveal.getByRole('button', { name: 'Copy test API key' }).click();
    await reveal.getByRole('button', { name: 'Copy test API key: copied' }).waitFor();
    const testKey = await page.evaluate(() => navigator.clipboard.readText());
    expect(testKey).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    await h.screenshot(page, `${width}-1-keys-revealed`);

    // No credit at all: the test key still enrols and verifies, for nothing.
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${h.baseUrl}/api/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const enrolled = await call('/generate', { user_id: 'sandbox-user', purpose: 'login' });
    expect(enrolled.status).toBe(201);
    const code = new TOTP({ secret: Secret.fromBase32(enrolled.body.secret as string) }).generate();
    const verified = await call('/verify', { user_id: 'sandbox-user', totp_code: code, purpose: 'login' });
    expect(verified.body).toMatchObject({ verified: true, cost: '0.00', balance: '0.00', livemode: false });

    await reveal.getByRole('button', { name: /I.ve saved them/ }).click();
    await page.reload();
    // Live data by default: the test check is not there.
    await page.getByTestId('api-key-prefix').waitFor();
    expect(await page.getByText('sandbox-user').count()).toBe(0);

    await page.getByRole('radiogroup', { name: 'Show live or test data' }).getByRole('radio', { name: 'Test' }).click();
    await page.getByTestId('test-mode-banner').waitFor();
    await page.waitForURL('**/business?mode=test');
    await page.getByTestId('test-api-key-prefix').waitFor();
    expect(await page.getByTestId('test-api-key-prefix').textContent()).toBe(`${testKey.slice(0, 12)}••••`);
    await page.getByRole('list', { name: 'Recent verifications' }).getByText('sandbox-user').waitFor();
    await h.screenshot(page, `${width}-2-test-mode`);
    await expectNoSeriousA11yViolations(page, { label: `${width}-2-test-mode` });
    expect(h.pageErrors(page)).toEqual([]);
  });
});
