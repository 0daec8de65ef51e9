// @vitest-environment node
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PlanCard } from './PlanCard';
import { PublicFooter } from './PublicFooter';
import { PublicHeader } from './PublicHeader';

describe('the public chrome on the server', () => {
  it('renders header, footer and a plan card where there is no window or document', () => {
    expect(typeof window).toBe('undefined');
    const html = renderToString(
      <StaticRouter location="/blog">
        <PublicHeader links={[{ label: 'Features', href: '#features' }, { label: 'Blog', href: '/blog' }]} />
        <PlanCard
          titleId="plan-pro"
          name="Pro"
          tagline="For production."
          featured
          badge="Most popular"
          price="₹5,000"
          priceNotes={['50,000 verifications']}
          features={['Webhooks']}
          cta={{ label: 'Get started', href: '/api/login' }}
        />
        <PublicFooter description="What Sixdigit is." columns={[{ title: 'Product', links: [{ label: 'Pricing', href: '#pricing' }] }]} />
      </StaticRouter>,
    );
    expect(html).toContain('href="/#features"');
    expect(html).toContain('href="/api/login"');
    expect(html).toContain('aria-expanded="false"');
    expect(html).toContain('href="/#pricing"');
    expect(html).toContain('Most popular');
  });
});
