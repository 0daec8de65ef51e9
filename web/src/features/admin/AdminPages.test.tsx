import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetToasts } from '@/components/ui/use-toast';
import type { CurrentUser } from '@/features/auth/api';
import { ada, admin, jsonResponse, renderApp, stubServer } from '@/test/render-app';
import type { MfaStatus } from './api';
import { formatDuration } from './AdminPaymentsPage';
import { assignProblem } from './AdminRolesPage';

vi.setConfig({ testTimeout: 20_000 });

const unconfigured: MfaStatus = { email: admin.email, mfaConfigured: false, mfaVerified: false, verifiedUntil: null, recoveryCodesLeft: 0 };
const configured: MfaStatus = { ...unconfigured, mfaConfigured: true, recoveryCodesLeft: 10 };
const verified: MfaStatus = { ...configured, mfaVerified: true, verifiedUntil: new Date(Date.now() + 20 * 60_000).toISOString() };

type Handler = (init: RequestInit | undefined) => Response;

function serve(user: CurrentUser | null, routes: Record<string, Handler>) {
  return stubServer(user, (raw, init) => {
    const url = new URL(raw, 'http://localhost');
    return routes[`${init?.method ?? 'GET'} ${url.pathname}`]?.(init);
  });
}

beforeEach(() => resetToasts());
afterEach(() => vi.unstubAllGlobals());

describe('/admin', () => {
  it('asks a signed-out visitor to log in, and tells anyone else access is denied (with their own address)', async () => {
    serve(null, {});
    const first = renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Authentication Required' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/api/login?returnTo=%2Fadmin');
    first.unmount();

    serve(ada, {});
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByText(ada.email)).toBeInTheDocument();
  });

  it('sets up MFA: the enrolment code first, QR and key, the button only at exactly 6 digits, then the recovery codes once', async () => {
    const confirm = vi.fn((_init: RequestInit | undefined) => jsonResponse(200, { mfaConfigured: true, mfaVerified: true, verifiedUntil: verified.verifiedUntil, recoveryCodes: Array.from({ length: 10 }, (_, i) => `abcd-ef0${i}`) }));
    const setup = vi.fn((_init: RequestInit | undefined) => jsonResponse(200, { qrCodeUrl: 'data:image/png;base64,AAAA', secret: 'JBSWY3DPEHPK3PXP', manualEntry: 'JBSW Y3DP EHPK 3PXP', otpauthUri: 'otpauth://totp/x' }));
    let status = unconfigured;
    serve(admin, {
      'GET /api/admin/mfa/status': () => jsonResponse(200, status),
      'POST /api/admin/mfa/setup': (init) => setup(init),
      'POST /api/admin/mfa/confirm': (init) => {
        status = verified;
        return confirm(init);
      },
    });
    const user = userEvent.setup();
    renderApp('/admin');
    expect(await screen.findByText('Setup Required')).toBeInTheDocument();
    // Nothing to press until the operator's code is typed; the page says where it comes from.
    const start = screen.getByRole('button', { name: 'Set up MFA' });
    expect(start).toBeDisabled();
    expect(screen.getByText(/start-up log/)).toBeInTheDocument();
    expect(screen.getByText('npm run cli -- admin:mfa-enrol-code')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Enrolment code'), 'abcd-efgh-jkmn-pqrs');
    await user.click(start);
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeInTheDocument();
    expect(screen.getByTestId('mfa-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');
    const button = screen.getByRole('button', { name: 'Confirm & Enable MFA' });
    const input = screen.getByLabelText('6-digit code');
    await user.type(input, '12a34-5');
    expect(input).toHaveValue('12345');
    expect(button).toBeDisabled();
    await user.type(input, '67');
    expect(input).toHaveValue('123456');
    expect(button).toBeEnabled();
    await user.click(button);
    expect(await screen.findByTestId('recovery-codes')).toBeInTheDocument();
    expect(JSON.parse(String(setup.mock.calls[0]?.[0]?.body))).toEqual({ enrolmentCode: 'abcd-efgh-jkmn-pqrs' });
    expect(JSON.parse(String(confirm.mock.calls[0]?.[0]?.body))).toEqual({ totpCode: '123456' });
    await user.click(screen.getByRole('button', { name: 'I saved them' }));
    expect(await screen.findByRole('link', { name: /Admin dashboard/ })).toBeInTheDocument();
    expect(screen.queryByTestId('recovery-codes')).not.toBeInTheDocument();
  });

  it('says so beside the field when the enrolment code is refused, and shows no QR code', async () => {
    serve(admin, {
      'GET /api/admin/mfa/status': () => jsonResponse(200, unconfigured),
      'POST /api/admin/mfa/setup': () => jsonResponse(403, { error: { code: 'enrolment_code_invalid', message: 'wrong', request_id: 'r' } }),
    });
    const user = userEvent.setup();
    renderApp('/admin');
    await user.type(await screen.findByLabelText('Enrolment code'), 'WRNG-WRNG-WRNG-WRNG');
    await user.click(screen.getByRole('button', { name: 'Set up MFA' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('wrong, expired or already used');
    expect(screen.getByLabelText('Enrolment code')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('img', { name: 'QR code for your authenticator app' })).not.toBeInTheDocument();
  });

  it('says "Verification Failed" for a wrong code and keeps asking', async () => {
    serve(admin, {
      'GET /api/admin/mfa/status': () => jsonResponse(200, configured),
      'POST /api/admin/mfa/verify': () => jsonResponse(400, { error: { code: 'invalid_code', message: 'Invalid code. Please try again.', request_id: 'r' } }),
    });
    const user = userEvent.setup();
    renderApp('/admin');
    await user.type(await screen.findByLabelText('6-digit code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify MFA' }));
    expect(await screen.findByText('Verification Failed')).toBeInTheDocument();
    expect(screen.getByLabelText('6-digit code')).toHaveValue('');
  });
});

describe('the admin gate', () => {
  it('shows "MFA Setup Required" and "MFA Verification Required" before any admin data is asked for', async () => {
    const dashboard = vi.fn(() => jsonResponse(500, {}));
    serve(admin, { 'GET /api/admin/mfa/status': () => jsonResponse(200, unconfigured), 'GET /api/admin/dashboard': dashboard });
    const first = renderApp('/admin/dashboard');
    expect(await screen.findByRole('heading', { name: 'MFA Setup Required' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Complete MFA Setup' })).toHaveAttribute('href', '/admin');
    first.unmount();

    serve(admin, { 'GET /api/admin/mfa/status': () => jsonResponse(200, configured), 'GET /api/admin/dashboard': dashboard });
    renderApp('/admin/payments');
    expect(await screen.findByRole('heading', { name: 'MFA Verification Required' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Verify MFA' })).toHaveAttribute('href', '/admin');
    expect(dashboard).not.toHaveBeenCalled();
  });

  it('sends an MFA that lapsed mid-session back to verification', async () => {
    serve(admin, {
      'GET /api/admin/mfa/status': () => jsonResponse(200, verified),
      'GET /api/admin/dashboard': () => jsonResponse(403, { error: { code: 'mfa_required', message: 'Verify', request_id: 'r' } }),
    });
    renderApp('/admin/dashboard');
    expect(await screen.findByRole('heading', { name: 'MFA Verification Required' })).toBeInTheDocument();
  });

  it('turns a non-admin away', async () => {
    serve(ada, {});
    renderApp('/admin/roles');
    expect(await screen.findByText('Only the system administrator can manage user roles.')).toBeInTheDocument();
  });
});

describe('roles', () => {
  it('validates the e-mail as SPEC §5 says', () => {
    expect(assignProblem('   ')).toEqual({ title: 'Email Required', description: 'Please enter a valid email address' });
    expect(assignProblem('not an email')).toEqual({ title: 'Invalid Email', description: 'Please enter a valid email address' });
    expect(assignProblem(' fm@example.com ')).toBeNull();
  });

  it('assigns, toasts and clears the field', async () => {
    const assign = vi.fn(() => jsonResponse(200, { user: { id: 'u', email: 'fm@example.com', role: 'financial_manager' } }));
    serve(admin, {
      'GET /api/admin/mfa/status': () => jsonResponse(200, verified),
      'GET /api/admin/roles': () => jsonResponse(200, { admin: { email: admin.email }, financialManagers: [] }),
      'POST /api/admin/assign-financial-manager': assign,
    });
    const user = userEvent.setup();
    renderApp('/admin/roles');
    const [field] = await screen.findAllByLabelText('E-mail');
    await user.type(field!, 'fm@example.com');
    await user.click(screen.getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText('Financial Manager Assigned')).toBeInTheDocument();
    await waitFor(() => expect(field).toHaveValue(''));
    expect(assign).toHaveBeenCalledTimes(1);
  });
});

describe('payments', () => {
  it('formats the average processing time', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(40)).toBe('40 s');
    expect(formatDuration(18 * 60)).toBe('18 min');
    expect(formatDuration(2 * 3600 + 24 * 60)).toBe('2 h 24 min');
  });
});
