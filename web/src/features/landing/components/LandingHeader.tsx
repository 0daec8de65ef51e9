import { PublicHeader } from '@/components/site/PublicHeader';
import { NAV_ITEMS } from '../content';

/** Sticky top bar: brand, section anchors (a menu on phones), Login and Get Started. */
export function LandingHeader() {
  return <PublicHeader links={NAV_ITEMS} />;
}
