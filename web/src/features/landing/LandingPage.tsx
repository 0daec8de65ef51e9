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
      <a
        href="#main-content"
        className="sr-only rounded-md bg-primary text-sm font-medium text-primary-foreground shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:px-4 focus:py-2"
      >
        Skip to content
      </a>
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
