import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_KEY_PLACEHOLDER, renderSample } from '@common/samples';
import { renderSdkSample, SDK_INSTALL } from '@common/samples/sdk';
import { resetToasts } from '@/components/ui/use-toast';
import { COPIED_FEEDBACK_MS } from '@/lib/use-copy';
import { jsonResponse, renderApp, stubServer } from '@/test/render-app';
import { OPENAPI_URL } from './api';
import { ERROR_CODES_DOC } from './content';
import { OPENAPI_FIXTURE } from './openapi.fixture';
import { fieldsOf, operationsOf } from './openapi';

vi.setConfig({ testTimeout: 20_000 });

const serveOpenApi = () => stubServer(null, (url) => (url === OPENAPI_URL ? jsonResponse(200, OPENAPI_FIXTURE) : undefined));

afterEach(() => {
  vi.useRealTimers();
  resetToasts();
});

function region(name: RegExp) {
  return screen.getByRole('region', { name });
}

function rowText(table: HTMLElement, header: string): string[] {
  const row = within(table).getByRole('rowheader', { name: header }).closest('tr')!;
  return within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent ?? '');
}

describe('enterprise landing', () => {
  it('shows the fixed 1,000,000-a-month example against both competitors, computed from the catalogue', () => {
    serveOpenApi();
    renderApp('/', { variant: 'enterprise' });
    const example = region(/At 1,000,000 verifications a month/);
    const table = within(example).getByRole('table', { name: 'Monthly cost at 1,000,000 verifications' });
    expect(rowText(table, 'Sixdigit')).toEqual(['$0.0038', '$3,800', '—']);
    expect(rowText(table, 'Provider A (SMS verification)')).toEqual(['$0.05', '$50,000', '$46,200 (92%)']);
    expect(rowText(table, 'Provider B (SMS verification)')).toEqual(['$0.023', '$23,000', '$19,200 (83%)']);
    expect(within(example).getByTestId('example-savings')).toHaveTextContent(
      'You save each month$46,20092% less than Provider A (SMS verification) — $554,400 a year',
    );
    expect(screen.queryByText(/Coming in this release/i)).toBeNull();
  });

  it('shows the three plans, the six feature cards and the uptime tiers', () => {
    serveOpenApi();
    renderApp('/', { variant: 'enterprise' });
    const plans = region(/Prepaid plans/);
    const developer = within(plans).getByRole('group', { name: 'Developer' });
    expect(developer).toHaveTextContent('$19');
    expect(developer).toHaveTextContent('5,000 verifications');
    expect(developer).toHaveTextContent('99.9% uptime target');
    const business = within(plans).getByRole('group', { name: 'Business' });
    expect(business).toHaveTextContent('$99');
    expect(business).toHaveTextContent('27,500 verifications (25,000 + 2,500 bonus)');
    expect(business).toHaveTextContent('$0.0036 per verification');
    expect(business).toHaveTextContent('10% bonus verifications');
    expect(within(plans).getByRole('group', { name: 'Enterprise' })).toHaveTextContent('Custom');
    expect(within(region(/Built for production/)).getAllByRole('listitem')).toHaveLength(6);
    expect(within(region(/Uptime for every tier/)).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Developer99.9%at most 43 min 12 s of downtime in a 30-day month',
      'Business99.95%at most 21 min 36 s of downtime in a 30-day month',
      'Enterprise99.99%at most 4 min 19 s of downtime in a 30-day month',
    ]);
  });

  it('sends sign-up and sales buttons to the main site named by the OpenAPI document', async () => {
    serveOpenApi();
    renderApp('/', { variant: 'enterprise' });
    const plans = region(/Prepaid plans/);
    const start = within(plans).getByRole('link', { name: 'Start building' });
    await vi.waitFor(() => expect(start).toHaveAttribute('href', 'https://api.example.test/api/login'));
    expect(within(plans).getByRole('link', { name: 'Contact sales' })).toHaveAttribute('href', 'https://api.example.test/contact');
  });

  it('takes the main site from the page the server sent, at once and without fetching the OpenAPI document', () => {
    const meta = document.createElement('meta');
    meta.name = 'sixdigit-main-origin';
    meta.content = 'https://sixdigit.example.com';
    document.head.appendChild(meta);
    try {
      const fetchMock = serveOpenApi();
      renderApp('/', { variant: 'enterprise' });
      const plans = region(/Prepaid plans/);
      expect(within(plans).getByRole('link', { name: 'Start building' })).toHaveAttribute('href', 'https://sixdigit.example.com/api/login');
      expect(within(plans).getByRole('link', { name: 'Contact sales' })).toHaveAttribute('href', 'https://sixdigit.example.com/contact');
      expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain(OPENAPI_URL);
    } finally {
      meta.remove();
    }
  });
});

describe('enterprise pricing: the ROI slider', () => {
  function figures() {
    return {
      volume: screen.getByTestId('roi-volume').textContent,
      ours: screen.getByTestId('roi-ours').textContent,
      savings: screen.getByTestId('roi-savings').textContent,
      annual: screen.getByTestId('roi-annual').textContent,
      providerB: rowText(screen.getByRole('table'), 'Provider B (SMS verification)'),
    };
  }

  it('is a labelled range of 10,000–10,000,000 in steps of 10,000, starting at 1,000,000', () => {
    serveOpenApi();
    renderApp('/pricing', { variant: 'enterprise' });
    const slider = screen.getByRole('slider', { name: 'Monthly verifications' });
    expect(slider).toHaveAttribute('min', '10000');
    expect(slider).toHaveAttribute('max', '10000000');
    expect(slider).toHaveAttribute('step', '10000');
    expect(slider).toHaveValue('1000000');
    expect(slider).toHaveAttribute('aria-valuetext', '1,000,000 verifications a month');
  });

  it('shows the exact figures at 10k, 1M and 10M', () => {
    serveOpenApi();
    renderApp('/pricing', { variant: 'enterprise' });
    const slider = screen.getByRole('slider', { name: 'Monthly verifications' });
    expect(figures()).toEqual({
      volume: '1,000,000',
      ours: '$3,800',
      savings: '$46,200 (92%)',
      annual: '$554,400 a year',
      providerB: ['$0.023', '$23,000', '$19,200 (83%)'],
    });
    fireEvent.change(slider, { target: { value: '10000' } });
    expect(figures()).toEqual({
      volume: '10,000',
      ours: '$38',
      savings: '$462 (92%)',
      annual: '$5,544 a year',
      providerB: ['$0.023', '$230', '$192 (83%)'],
    });
    fireEvent.change(slider, { target: { value: '10000000' } });
    expect(figures()).toEqual({
      volume: '10,000,000',
      ours: '$38,000',
      savings: '$462,000 (92%)',
      annual: '$5,544,000 a year',
      providerB: ['$0.023', '$230,000', '$192,000 (83%)'],
    });
    expect(slider).toHaveAttribute('aria-valuetext', '10,000,000 verifications a month');
  });
});

describe('enterprise docs', () => {
  it('is generated from the OpenAPI document: operations, fields with limits, errors, base URL', async () => {
    serveOpenApi();
    renderApp('/docs', { variant: 'enterprise' });
    const verify = await screen.findByRole('article', { name: 'POST /verify' });
    expect(within(verify).getByText('user_id').closest('li')).toHaveTextContent('1–128 characters');
    expect(within(verify).getByText('window').closest('li')).toHaveTextContent('0–10');
    expect(within(verify).getByText('402').closest('li')).toHaveTextContent('insufficient_credits');
    expect(screen.getByRole('article', { name: 'GET /profile' })).toBeInTheDocument();
    expect(screen.getByTestId('docs-base-url')).toHaveTextContent('https://api.example.test/api/v1');
    // The envelope comes from the document's Error schema.
    const errors = region(/^Errors$/);
    const envelope = within(errors).getByRole('list', { name: 'Envelope' });
    expect(within(envelope).getAllByRole('listitem').map((li) => li.querySelector('code')?.textContent)).toEqual([
      'error',
      'error.code',
      'error.message',
      'error.request_id',
    ]);
    // Each error code has the anchor an error's doc_url points at.
    const codes = errors.querySelectorAll('[id^="error-"]');
    expect([...codes].map((el) => el.id)).toEqual(ERROR_CODES_DOC.map((e) => `error-${e.code}`));
    expect(document.getElementById('error-method_not_allowed')).toHaveTextContent('Allow header');
  });

  it('switches every sample to the chosen language, and copies it with "Copied" for 2 s', async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    serveOpenApi();
    renderApp('/docs', { variant: 'enterprise' });
    const verify = await screen.findByRole('article', { name: 'POST /verify' });
    const input = { baseUrl: 'https://api.example.test/api/v1', apiKey: API_KEY_PLACEHOLDER };
    const [managed, stateless] = within(verify).getAllByRole('tabpanel');
    expect(managed!.textContent).toBe(renderSample('verify', 'curl', input));
    expect(stateless!.textContent).toBe(renderSample('verifyStateless', 'curl', input));
    expect(within(verify).getByText('Stateless: you keep the secret')).toBeInTheDocument();

    await user.click(within(verify).getAllByRole('tab', { name: 'Python' })[0]!);
    expect(within(verify).getAllByRole('tabpanel').map((panel) => panel.textContent)).toEqual([
      renderSample('verify', 'python', input),
      renderSample('verifyStateless', 'python', input),
    ]);
    // One choice for the whole page: the profile sample follows.
    const profile = screen.getByRole('article', { name: 'GET /profile' });
    expect(within(profile).getByRole('tab', { name: 'Python' })).toHaveAttribute('aria-selected', 'true');
    expect(within(profile).getByRole('tabpanel').textContent).toBe(renderSample('profile', 'python', input));

    // The clock is frozen from the copy on, so "2 s" is exact.
    vi.useFakeTimers();
    const copy = within(verify).getByRole('button', { name: 'Copy Python code for POST /verify' });
    await act(async () => copy.click());
    expect(writeText).toHaveBeenCalledWith(renderSample('verify', 'python', input));
    const copied = within(verify).getByRole('button', { name: 'Copied Python code for POST /verify' });
    expect(copied).toHaveTextContent('Copied');
    act(() => vi.advanceTimersByTime(COPIED_FEEDBACK_MS - 1));
    expect(copied).toHaveTextContent('Copied');
    act(() => vi.advanceTimersByTime(1));
    expect(within(verify).getByRole('button', { name: 'Copy Python code for POST /verify' })).toHaveTextContent('Copy');
  });

  it('has Node SDK and Python SDK tabs showing the SDK samples, and an SDKs section with the install commands', async () => {
    const user = userEvent.setup();
    serveOpenApi();
    renderApp('/docs', { variant: 'enterprise' });
    const verify = await screen.findByRole('article', { name: 'POST /verify' });
    const input = { baseUrl: 'https://api.example.test/api/v1', apiKey: API_KEY_PLACEHOLDER };
    expect(within(verify).getAllByRole('tablist')[0]!.textContent).toBe('cURLJavaScriptPythonPHPNode SDKPython SDK');
    await user.click(within(verify).getAllByRole('tab', { name: 'Node SDK' })[0]!);
    expect(within(verify).getAllByRole('tabpanel').map((panel) => panel.textContent)).toEqual([
      renderSdkSample('verify', 'node', input),
      renderSdkSample('verifyStateless', 'node', input),
    ]);
    expect(within(verify).getAllByRole('tabpanel')[0]!.textContent).toContain("  const result = await sixdigit.verify({\n    user_id: 'user_42',\n    totp_code: '123456',\n  });");
    await user.click(within(verify).getAllByRole('tab', { name: 'Python SDK' })[0]!);
    const profile = screen.getByRole('article', { name: 'GET /profile' });
    expect(within(profile).getByRole('tabpanel').textContent).toBe(renderSdkSample('profile', 'pythonSdk', input));
    const sdks = region(/^SDKs$/);
    expect(within(sdks).getByLabelText('Python SDK install commands').textContent).toBe(SDK_INSTALL.pythonSdk);
    expect(within(sdks).getByLabelText('Node SDK install commands').textContent).toBe(SDK_INSTALL.node);
  });

  it('says so, with a retry, when the document cannot be loaded', async () => {
    let fail = true;
    stubServer(null, (url) => (url === OPENAPI_URL ? (fail ? jsonResponse(503, { error: { code: 'unavailable', message: 'down', request_id: 'r' } }) : jsonResponse(200, OPENAPI_FIXTURE)) : undefined));
    const { client } = renderApp('/documentation', { variant: 'enterprise' });
    client.setDefaultOptions({ queries: { retry: false } });
    const alert = await screen.findByRole('alert', {}, { timeout: 15_000 });
    expect(alert).toHaveTextContent('could not be loaded');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'POST /verify' })).toBeInTheDocument();
  });
});

describe('reading the OpenAPI document', () => {
  it('lists operations with their success status, fields, limits and errors', () => {
    const ops = operationsOf(OPENAPI_FIXTURE);
    expect(ops.map((op) => `${op.method} ${op.path} ${op.successStatus}`)).toEqual(['GET /profile 200', 'POST /verify 200']);
    const verify = ops[1]!;
    expect(verify.headerParams).toEqual([{ name: 'idempotency-key', type: 'string', required: false, limits: ['1–255 characters'] }]);
    expect(verify.requestFields.find((f) => f.name === 'totp_code')).toEqual({ name: 'totp_code', type: 'string', required: false, limits: ['pattern ^\\d{6,8}$'] });
    expect(verify.responseFields.find((f) => f.name === 'status')?.type).toBe('"verified" | "invalid_code" | "expired" | "replayed"');
    // zod's "any integer" bounds are not shown as limits.
    expect(verify.responseFields.find((f) => f.name === 'backup_codes_left')).toMatchObject({ type: 'integer', required: false, limits: [] });
    expect(verify.errors.map((e) => e.status)).toEqual(['401', '402']);
    expect(fieldsOf(OPENAPI_FIXTURE, { $ref: '#/components/schemas/Error' }).map((f) => `${f.name}:${f.type}:${f.required}`)).toEqual([
      'error:object:true',
      'error.code:string:true',
      'error.message:string:true',
      'error.request_id:string:true',
    ]);
    // Nested response objects are listed with their fields.
    expect(operationsOf(OPENAPI_FIXTURE)[0]!.responseFields.map((f) => f.name)).toContain('rate_limit.requests_per_minute');
  });
});
