/**
 * The enterprise site on its own host (enterprise.localhost:<port>), on a laptop and a phone:
 * landing → pricing (move the ROI slider with the keyboard, see the savings change) → docs
 * (generated from the live OpenAPI document; switch to Python, copy, see "Copied"), with axe
 * finding no serious or critical problem on any of the three pages.
 */
import { describe, expect, it } from 'vitest';
import {
  ENTERPRISE_EXAMPLE_MONTHLY_VERIFICATIONS,
  ROI_SLIDER,
  formatCount,
  formatUsd,
  roiSavings,
} from '../../common/pricing';
import { API_KEY_PLACEHOLDER, apiBaseUrl, renderSample } from '../../common/samples';
import { horizontalOverflow } from '../support/a11y';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { useE2E, visit } from '../support/harness';

const h = useE2E('site/enterprise');

/** The biggest monthly saving at a volume, as the calculator shows it. */
function savingsText(volume: number): string {
  const best = roiSavings(volume).competitors.reduce((a, b) => (b.monthlySavingsUsdMicros > a.monthlySavingsUsdMicros ? b : a));
  return `${formatUsd(best.monthlySavingsUsdMicros)} (${best.savingsPercent}%)`;
}

describe.each([1280, 390] as const)('the enterprise site at %i px', (width) => {
  it('landing → pricing (slider by keyboard) → docs (Python, copy)', async () => {
    const page = await h.newPage({ width, baseURL: h.enterpriseUrl });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.enterpriseUrl });

    // Landing: the fixed 1,000,000-a-month example and the plans, on the enterprise host.
    await visit(page, '/');
    expect(new URL(page.url()).host).toBe(`enterprise.localhost:${h.port}`);
    await page.getByRole('heading', { level: 1, name: /\$0\.0038 per verification/ }).waitFor();
    const example = page.getByRole('region', { name: `At ${formatCount(ENTERPRISE_EXAMPLE_MONTHLY_VERIFICATIONS)} verifications a month` });
    await example.getByText(formatUsd(roiSavings(ENTERPRISE_EXAMPLE_MONTHLY_VERIFICATIONS).sixdigitMonthlyUsdMicros), { exact: true }).waitFor();
    await example.getByTestId('example-savings').getByText('$46,200').waitFor();
    const plans = page.getByRole('region', { name: 'Prepaid plans, no monthly minimum' });
    await plans.getByRole('group', { name: 'Business' }).getByText('27,500 verifications').waitFor();
    // Sign-up goes to the main site (the server's PUBLIC_URL), not to this host.
    await expect.poll(() => plans.getByRole('link', { name: 'Start building' }).getAttribute('href')).toBe(`${h.baseUrl}/api/login`);
    expect(await horizontalOverflow(page)).toBe(0);
    await expectNoSeriousA11yViolations(page);
    await h.screenshot(page, `${width}-1-landing`);

    // Pricing, reached from the header.
    await page.getByRole('banner').getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL((url) => url.pathname === '/pricing');
    const slider = page.getByRole('slider', { name: 'Monthly verifications' });
    const savings = page.getByTestId('roi-savings');
    await expect.poll(() => slider.inputValue()).toBe(String(ROI_SLIDER.defaultValue));
    await expect.poll(() => savings.textContent()).toBe(savingsText(ROI_SLIDER.defaultValue));

    await slider.focus();
    await page.keyboard.press('ArrowRight');
    const oneStepUp = ROI_SLIDER.defaultValue + ROI_SLIDER.step;
    await expect.poll(() => slider.inputValue()).toBe(String(oneStepUp));
    await expect.poll(() => page.getByTestId('roi-volume').textContent()).toBe(formatCount(oneStepUp));
    await expect.poll(() => savings.textContent()).toBe(savingsText(oneStepUp));
    await page.keyboard.press('Home');
    await expect.poll(() => savings.textContent()).toBe(savingsText(ROI_SLIDER.min));
    await expect.poll(() => page.getByTestId('roi-ours').textContent()).toBe('$38');
    await page.keyboard.press('End');
    await expect.poll(() => savings.textContent()).toBe(savingsText(ROI_SLIDER.max));
    expect(await horizontalOverflow(page)).toBe(0);
    await expectNoSeriousA11yViolations(page);
    await h.screenshot(page, `${width}-2-pricing`);

    // Docs, reached from the header: generated from the server's own OpenAPI document.
    await page.getByRole('banner').getByRole('link', { name: 'Docs' }).click();
    await page.waitForURL((url) => url.pathname === '/docs');
    const verify = page.getByRole('article', { name: 'POST /verify' });
    await verify.waitFor();
    await page.getByTestId('docs-base-url').getByText(apiBaseUrl(h.baseUrl)).waitFor();
    for (const name of ['GET /profile', 'POST /test', 'POST /generate', 'DELETE /users/{user_id}']) {
      await page.getByRole('article', { name }).waitFor();
    }

    await verify.getByRole('tab', { name: 'Python' }).first().click();
    const python = renderSample('verify', 'python', { baseUrl: apiBaseUrl(h.baseUrl), apiKey: API_KEY_PLACEHOLDER });
    await expect.poll(() => verify.getByRole('tabpanel').first().textContent()).toBe(python);
    await verify.getByRole('button', { name: 'Copy Python code for POST /verify', exact: true }).click();
    await verify.getByRole('button', { name: 'Copied Python code for POST /verify', exact: true }).getByText('Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(python);
    // …and the confirmation goes away again.
    await verify.getByRole('button', { name: 'Copy Python code for POST /verify', exact: true }).waitFor({ timeout: 5_000 });
    expect(await horizontalOverflow(page)).toBe(0);
    await expectNoSeriousA11yViolations(page);
    await h.screenshot(page, `${width}-3-docs`);

    // /documentation is the same reference.
    await visit(page, '/documentation');
    await page.getByRole('article', { name: 'POST /generate' }).waitFor();
    expect(h.pageErrors(page)).toEqual([]);
  });
});
