import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { grantCredits } from '../../server/src/features/credits/service';
import { findUserByEmail } from '../../server/src/features/users/repo';
import { findBusinessByOwner } from '../../server/src/features/business/repo';
import { signInLocally, useE2E, visit } from '../support/harness';
import { expectNoSeriousA11yViolations } from '../support/axe';

const h = useE2E('business/api-roundtrip');

describe('a business owner', () => {
  it('creates a business, copies the key from the page, calls the API with a computed code and sees it counted', async () => {
    const page = await h.newPage({ width: 1280 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.baseUrl });

    await visit(page, '/business');
    await page.waitForURL('**/api/login?returnTo=%2Fbusiness');
    await signInLocally(page, 'owner@acme.example', 'Asha Owner');
    await page.waitForURL('**/business');
    await page.getByLabel('Company Name').fill('Acme Payments');
    await page.getByRole('button', { name: 'Create Business Account' }).click();
    const reveal = page.getByTestId('api-key-reveal');
    await reveal.waitFor();
    await reveal.getByRole('button', { name: 'Copy API key', exact: true }).click();
    await reveal.getByRole('button', { name: 'Copy API key: copied' }).waitFor();
    const apiKey = await page.evaluate(() => navigator.clipboard.readText());
    expect(apiKey).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    await h.screenshot(page, '1-key-revealed');

    // Credit arrives (the payments issue adds the top-up flow); the operator grants it here.
    const owner = await findUserByEmail(h.ctx.db, 'owner@acme.example');
    const business = await findBusinessByOwner(h.ctx.db, owner!.id);
    await grantCredits(h.ctx.db, { businessIdOrEmail: business!.id, amountPaise: 10_000, reason: 'e2e' }, { userId: null, label: 'e2e' });

    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${h.baseUrl}/api/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const enrolled = await call('/generate', { user_id: 'customer-7', purpose: 'login' });
    expect(enrolled.status).toBe(201);
    const code = new TOTP({ secret: Secret.fromBase32(enrolled.body.secret as string) }).generate();
    const verified = await call('/verify', { user_id: 'customer-7', totp_code: code, purpose: 'login' });
    expect(verified.body).toMatchObject({ verified: true, status: 'verified', cost: '0.10', balance: '99.90' });

    await page.reload();
    const recent = page.getByRole('list', { name: 'Recent verifications' });
    await recent.getByText('customer-7').waitFor();
    const today = page.getByRole('region', { name: 'Today' });
    await today.getByText('100%').waitFor();
    expect(await page.getByText('₹99.90').first().isVisible()).toBe(true);
    await h.screenshot(page, '2-dashboard-counted');
    await expectNoSeriousA11yViolations(page, { label: '2-dashboard-counted' });
    expect(h.pageErrors(page)).toEqual([]);
  });
});
