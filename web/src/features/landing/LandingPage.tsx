import { SkipLink } from '@/app/layout/PublicLayout';
import { Comparison } from './components/Comparison';
import { DocsTeaser } from './components/DocsTeaser';
import { Features } from './components/Features';
import { Hero, StatsStrip } from './components/Hero';
import { CallToAction, LandingFooter } from './components/LandingFooter';
import { LandingHeader } from './components/LandingHeader';
import { Pricing } from './components/Pricing';

/**
 * The public landing page (SPEC §2, logged-out). Every figure comes from `@common/pricing`;
 * every sign-in button is a plain link to /api/login (a full page navigation to the server).
 */
export function LandingPage() {
  return (
    <div className="flex min-h-dvh flex-col bg-background text-foreground">
      <SkipLink target="main-content" />
      <LandingHeader />
      <main id="main-content" tabIndex={-1} className="flex-1 outline-none">
        <Hero />
        <StatsStrip />
        <Features />
        <Pricing />
        <Comparison />
        <DocsTeaser />
        <CallToAction />
      </main>
      <LandingFooter />
    </div>
  );
}
