import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { AutoRefillWorker } from '../../server/src/features/autorefill/worker';
import { findBusinessByOwner } from '../../server/src/features/business/repo';
import { grantCredits } from '../../server/src/features/credits/service';
import { findUserByEmail } from '../../server/src/features/users/repo';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { signInLocally, useE2E, visit } from '../support/harness';

const h = useE2E('business/auto-refill');

describe('auto-refill without Razorpay', () => {
  it('sets a threshold, and the crossing puts a bank/UPI request with its QR and UTR form on the dashboard', async () => {
    const page = await h.newPage({ width: 1280 });
    await visit(page, '/business');
    await page.waitForURL('**/api/login?returnTo=%2Fbusiness');
    await signInLocally(page, 'refill@acme.example', 'Ravi Owner');
    await page.waitForURL('**/business');
    await page.getByLabel('Company Name').fill('Refill Traders');
    await page.getByRole('button', { name: 'Create Business Account' }).click();
    await page.getByTestId('api-key-reveal').waitFor();
    const apiKey = await page.getByTestId('api-key-reveal').getByText(/^sk_live_/).textContent();

    const owner = await findUserByEmail(h.ctx.db, 'refill@acme.example');
    const business = (await findBusinessByOwner(h.ctx.db, owner!.id))!;
    await grantCredits(h.ctx.db, { businessIdOrEmail: business.id, amountPaise: 50_030, reason: 'e2e' }, { userId: null, label: 'e2e' });
    await page.reload();

    const card = page.getByRole('region', { name: 'Auto-refill' });
    await expect(card.getByText('Sends you a bank/UPI top-up request')).toBeDefined();
    await card.getByRole('button', { name: 'Auto-refill settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Auto-refill settings' });
    await dialog.getByLabel('Enable auto-refill').check();
    await dialog.getByLabel('Threshold (₹)').fill('500');
    await dialog.getByRole('button', { name: 'Save settings' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Four checks take the balance from ₹500.30 to ₹499.90: under the threshold, once.
    const secret = new Secret({ size: 20 }).base32;
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${h.baseUrl}/api/v1/verify`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey!.trim()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ secret, token: new TOTP({ secret: Secret.fromBase32(secret) }).generate() }),
      });
      expect(res.status).toBe(200);
    }
    await new AutoRefillWorker(h.ctx).runOnce();
    await page.reload();

    const request = card.getByRole('region', { name: 'Top-up request to pay' });
    await request.waitFor();
    expect(await request.textContent()).toMatch(/Pay ₹5,000 quoting SXD-/);
    await request.getByRole('img', { name: /UPI QR code/ }).waitFor();
    await card.scrollIntoViewIfNeeded();
    await h.screenshot(page, '1-request-1280');
    await expectNoSeriousA11yViolations(page, { label: 'auto-refill request on the dashboard' });

    const phone = await h.newPage({ width: 390 });
    await phone.context().addCookies(await page.context().cookies());
    await visit(phone, '/business');
    await phone.getByRole('region', { name: 'Top-up request to pay' }).waitFor();
    await h.screenshot(phone, '2-request-390');
    expect(h.pageErrors(page)).toEqual([]);
  });
});
