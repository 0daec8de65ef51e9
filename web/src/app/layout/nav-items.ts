import { Building2, KeyRound, Landmark, ShieldCheck, ShieldEllipsis, type LucideIcon } from 'lucide-react';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Whether the item is the current section for this path. */
  isActive: (pathname: string) => boolean;
  adminOnly?: boolean;
  /** shown to financial managers and the administrator */
  financeOnly?: boolean;
}

const exactly =
  (...paths: string[]) =>
  (pathname: string) =>
    paths.includes(pathname.replace(/\/+$/, '') || '/');

const under = (prefix: string) => (pathname: string) =>
  pathname === prefix || pathname.startsWith(`${prefix}/`);

export const NAV_ITEMS: NavItem[] = [
  // The authenticator lives at both / and /multi-totp; either highlights it.
  { label: 'Authenticator', to: '/', icon: KeyRound, isActive: exactly('/', '/multi-totp') },
  { label: 'Account TOTP', to: '/totp', icon: ShieldCheck, isActive: under('/totp') },
  { label: 'Business', to: '/business', icon: Building2, isActive: under('/business') },
  { label: 'Finance', to: '/financial-manager', icon: Landmark, isActive: under('/financial-manager'), financeOnly: true },
  { label: 'Admin', to: '/admin', icon: ShieldEllipsis, isActive: under('/admin'), adminOnly: true },
];

export function navItemsFor(isAdmin: boolean, role: string = isAdmin ? 'admin' : 'user'): NavItem[] {
  const finance = isAdmin || role === 'financial_manager';
  return NAV_ITEMS.filter((item) => (!item.adminOnly || isAdmin) && (!item.financeOnly || finance));
}
