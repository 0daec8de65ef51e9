import { describe, expect, it } from 'vitest';
import { navItemsFor } from './nav-items';

const labels = (isAdmin: boolean, role?: string) => navItemsFor(isAdmin, role).map((i) => i.label);

describe('navItemsFor', () => {
  it('shows Finance to financial managers and the administrator only, and Admin to the administrator only', () => {
    expect(labels(false, 'user')).toEqual(['Authenticator', 'Account TOTP', 'Business']);
    expect(labels(false, 'financial_manager')).toEqual(['Authenticator', 'Account TOTP', 'Business', 'Finance']);
    expect(labels(true, 'admin')).toEqual(['Authenticator', 'Account TOTP', 'Business', 'Finance', 'Admin']);
  });
});
