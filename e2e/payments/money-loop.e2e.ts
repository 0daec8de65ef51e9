import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { setUserRole } from '../../server/src/features/users/service';
import { signInLocally, useE2E, visit } from '../support/harness';
import { expectNoSeriousA11yViolations } from '../support/axe';

const h = useE2E('payments/money-loop');

describe('the money loop', () => {
  it('a business pays ₹5,000 by bank/UPI, a financial manager approves, and the credit is spendable', async () => {
    // The business: create an account, keep the API key, open Add Credits, pick ₹5,000.
    const business = await h.newPage({ width: 1280 });
    await business.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.baseUrl });
    await visit(business, '/api/login?returnTo=%2Fbusiness');
    await signInLocally(business, 'owner@loop.example', 'Lata Owner');
    await business.getByLabel('Company Name').fill('Loop Retail');
    await business.getByRole('button', { name: 'Create Business Account' }).click();
    const reveal = business.getByTestId('api-key-reveal');
    await reveal.getByRole('button', { name: 'Copy API key', exact: true }).click();
    await reveal.getByRole('button', { name: 'Copy API key: copied' }).waitFor();
    const apiKey = await business.evaluate(() => navigator.clipboard.readText());

    await visit(business, '/business/add-credits?pack=basic');
    await business.getByRole('img', { name: /UPI QR code: pay ₹5,000/ }).waitFor();
    const reference = (await business.getByTestId('payment-reference').first().textContent())!.trim();
    expect(reference).toMatch(/^SXD-/);
    await h.screenshot(business, '1-bank-qr');
    await expectNoSeriousA11yViolations(business, { label: '1-bank-qr' });
    await business.getByLabel('Bank transaction ID (UTR)').fill('UTR4455667788');
    await business.getByRole('button', { name: 'Submit payment for verification' }).click();
    await business.getByText(/Payment submitted/).first().waitFor();
    await business.getByRole('list', { name: 'Payment requests' }).getByText('Pending').waitFor();

    // The financial manager, in a separate browser session, approves it.
    const desk = await h.newPage({ width: 1280 });
    await visit(desk, '/api/login?returnTo=%2Ffinancial-manager');
    await signInLocally(desk, 'fm@sixdigit.example', 'Farah Manager');
    await desk.getByText("Access Denied: You don't have permission to access this area.").waitFor();
    await setUserRole(h.ctx.db, h.config.adminEmail, { email: 'fm@sixdigit.example', role: 'financial_manager' }, { userId: null, label: 'e2e' });
    await desk.reload();
    await desk.getByRole('link', { name: 'Finance' }).first().waitFor();
    const pending = desk.getByRole('list', { name: 'Pending approvals' });
    await pending.getByText(reference).waitFor();
    await h.screenshot(desk, '2-desk-pending');
    await expectNoSeriousA11yViolations(desk, { label: '2-desk-pending' });
    await desk.getByRole('button', { name: 'Approve ₹5,000 from Loop Retail' }).click();
    await desk.getByRole('dialog', { name: 'Approve payment' }).getByRole('button', { name: 'Approve and add credits' }).click();
    await desk.getByRole('list', { name: 'Recently processed' }).getByText(reference).waitFor();

    // The business sees it: 50,000 verifications left, and a notice.
    await visit(business, '/business');
    await business.getByRole('region', { name: 'Payment notices' }).getByText(/Payment approved/).waitFor();
    await business.getByText(/50,000 verifications left/).first().waitFor();
    await h.screenshot(business, '3-credited');
    await expectNoSeriousA11yViolations(business, { label: '3-credited' });

    // And can spend them through the API.
    const call = async (path: string, body: unknown) =>
      (await fetch(`${h.baseUrl}/api/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json())) as Record<string, unknown>;
    const enrolled = await call('/generate', { user_id: 'shopper-1' });
    const code = new TOTP({ secret: Secret.fromBase32(enrolled.secret as string) }).generate();
    expect(await call('/verify', { user_id: 'shopper-1', totp_code: code })).toMatchObject({ verified: true, balance: '4999.90' });
    expect(h.pageErrors(business)).toEqual([]);
    expect(h.pageErrors(desk)).toEqual([]);
  });
});
