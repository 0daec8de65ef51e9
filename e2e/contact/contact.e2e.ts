import { describe, expect, it } from 'vitest';
import { fund } from '../../test/support/verify-api';
import { setUserRole } from '../../server/src/features/users/service';
import { signInLocally, useE2E, visit } from '../support/harness';
import { expectNoSeriousA11yViolations } from '../support/axe';

const h = useE2E('contact/contact');

describe('support: the contact desk and Luna', () => {
  it('a visitor sends a refund request and a technical question (answered by Luna at once); a financial manager escalates a payment message; an owner chats with Luna', async () => {
    // A signed-out visitor, on a phone.
    const visitor = await h.newPage({ width: 390 });
    await visit(visitor, '/contact');
    await visitor.getByRole('heading', { name: 'Contact us' }).waitFor();
    await visitor.getByRole('button', { name: 'Send message' }).click();
    await visitor.getByText('Missing information').first().waitFor();
    await visitor.getByLabel('E-mail', { exact: true }).first().fill('visitor@contact.example');
    await visitor.getByLabel('Category').selectOption('refund');
    await visitor.getByLabel('Subject', { exact: true }).fill('Refund for an unused top-up');
    await visitor.getByLabel('Message', { exact: true }).fill('I topped up twice by mistake.');
    await visitor.getByRole('button', { name: 'Send message' }).click();
    await visitor.getByText('Message sent').first().waitFor();
    const refundCard = visitor.getByRole('status', { name: 'Message sent' });
    await refundCard.getByText('Escalated').waitFor();

    await visitor.getByLabel('Category').selectOption('technical');
    await visitor.getByLabel('Subject', { exact: true }).fill('402 errors');
    await visitor.getByLabel('Message', { exact: true }).fill('What does a 402 mean?');
    await visitor.getByRole('button', { name: 'Send message' }).click();
    await refundCard.getByText('Luna answered').waitFor();
    await refundCard.getByText(/insufficient_credits/).waitFor();
    const reference = (await refundCard.getByRole('heading').textContent())!.replace('Your reference: ', '').trim();
    expect(reference).toMatch(/^SD-/);
    await h.screenshot(visitor, '1-contact-390');
    await expectNoSeriousA11yViolations(visitor, { label: '1-contact-390' });

    // The status check, by reference and e-mail.
    await visitor.getByLabel('Reference').fill(reference);
    await visitor.getByLabel('E-mail', { exact: true }).last().fill('visitor@contact.example');
    await visitor.getByRole('button', { name: 'Check status' }).click();
    await visitor.getByRole('region', { name: 'Request status' }).getByText('Answered by Luna').waitFor();

    // A business owner reports a payment problem.
    const owner = await h.newPage({ width: 1280 });
    // The signed-in layout's chunk arrives late, as on a busy machine. The page used to be
    // mounted meanwhile in the public frame and mounted again when the chunk came, dropping the
    // typed company name or the API key shown once: this test's one-in-two flake (issue 18).
    await owner.route(/\/assets\/SignedInLayout-[^/]*\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue();
    });
    await visit(owner, '/api/login?returnTo=%2Fbusiness');
    await signInLocally(owner, 'owner@contact.example', 'Omar Owner');
    await owner.getByLabel('Company Name').fill('Contact Co');
    await owner.getByRole('button', { name: 'Create Business Account' }).click();
    await owner.getByTestId('api-key-reveal').waitFor();
    // The key stays on screen inside the signed-in layout (the page is not mounted a second time).
    await owner.getByRole('button', { name: 'Account menu for Omar Owner' }).waitFor();
    expect(await owner.getByTestId('api-key-reveal').isVisible()).toBe(true);
    await visit(owner, '/contact');
    await owner.getByLabel('Category').selectOption('payment');
    await owner.getByLabel('Subject', { exact: true }).fill('UTR not credited');
    await owner.getByLabel('Message', { exact: true }).fill('Paid ₹5,000 yesterday, UTR 412345678901.');
    await owner.getByRole('button', { name: 'Send message' }).click();
    await owner.getByRole('list', { name: 'My requests' }).getByText('UTR not credited').waitFor();
    await h.screenshot(owner, '2-contact-signed-in');
    await expectNoSeriousA11yViolations(owner, { label: '2-contact-signed-in' });

    // The financial manager escalates it to the admin.
    const desk = await h.newPage({ width: 1280 });
    await visit(desk, '/api/login?returnTo=%2Ffinancial-manager');
    await signInLocally(desk, 'fm@contact.example', 'Farah Manager');
    await setUserRole(h.ctx.db, h.config.adminEmail, { email: 'fm@contact.example', role: 'financial_manager' }, { userId: null, label: 'e2e' });
    await desk.reload();
    const messages = desk.getByRole('list', { name: 'Contact messages' });
    await messages.getByText('UTR not credited').waitFor();
    await desk.getByRole('button', { name: 'Escalate to admin: UTR not credited' }).click();
    await desk.getByText('Escalated to the admin').first().waitFor();
    await desk.getByRole('button', { name: 'Escalated', exact: true }).click();
    await messages.getByText('UTR not credited').waitFor();
    await messages.getByText('Refund for an unused top-up').waitFor();
    await h.screenshot(desk, '3-desk-escalated');
    await expectNoSeriousA11yViolations(desk, { label: '3-desk-escalated' });

    // The owner, with credit, asks Luna in the widget: real balance, then Python with their base URL.
    await fund(h.ctx, (await h.ctx.db.selectFrom('business').select('id').where('company_name', '=', 'Contact Co').executeTakeFirstOrThrow()).id, 250_000);
    await visit(owner, '/business');
    await owner.getByRole('button', { name: /Open Luna/ }).click();
    const luna = owner.getByRole('dialog', { name: /Luna/ });
    await luna.getByRole('button', { name: 'Check Credits' }).click();
    await luna.getByText(/₹2500\.00/).waitFor();
    await luna.getByLabel('Ask Luna').fill('Show me Python for verify');
    await luna.getByLabel('Ask Luna').press('Enter');
    await luna.getByText(`${h.baseUrl}/api/v1/verify`, { exact: false }).waitFor();
    await h.screenshot(owner, '4-luna-widget');
    await expectNoSeriousA11yViolations(owner, { label: '4-luna-widget' });
    await luna.getByRole('button', { name: 'Minimise Luna' }).click();
    await owner.getByRole('button', { name: /Open Luna, new reply/ }).waitFor();
    expect(h.pageErrors(owner)).toEqual([]);
    expect(h.pageErrors(visitor)).toEqual([]);
  });
});
