import { ArrowRight, BookOpen } from 'lucide-react';
import { PAISE_PER_VERIFICATION, formatRupees } from '@common/pricing';
import { Button } from '@/components/ui/button';
import { useCurrentUser } from '@/features/auth/api';
import { LandingSectionLink, OPENAPI_HREF, SIGN_IN_HREF } from '@/components/site/links';

/**
 * Start Free Trial (sign-in) and View API Docs: the landing page's docs section for visitors,
 * the OpenAPI reference for signed-in people (their "/" is the authenticator, not the landing).
 */
export function CallToAction({ title = 'Ready to replace SMS codes?', docs = true }: { title?: string; docs?: boolean }) {
  const { user } = useCurrentUser();
  return (
    <section aria-labelledby="blog-cta-title" className="rounded-2xl bg-primary px-6 py-10 text-center text-primary-foreground sm:px-10">
      <h2 id="blog-cta-title" className="text-2xl font-semibold tracking-tight text-balance sm:text-3xl">
        {title}
      </h2>
      <p className="mx-auto mt-3 max-w-xl text-pretty opacity-90">
        TOTP verification at {formatRupees(PAISE_PER_VERIFICATION)} per check. Sign in, create your API key and try it with the free test endpoint.
      </p>
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        <Button asChild size="lg" variant="secondary">
          <a href={user ? '/business' : SIGN_IN_HREF}>
            Start Free Trial
            <ArrowRight aria-hidden="true" />
          </a>
        </Button>
        {docs && (
          <Button
            asChild
            size="lg"
            variant="ghost"
            className="text-primary-foreground ring-1 ring-primary-foreground/40 hover:bg-primary-foreground/10 hover:text-primary-foreground"
          >
            {user ? (
              <a href={OPENAPI_HREF}>
                <BookOpen aria-hidden="true" />
                View API Docs
              </a>
            ) : (
              <LandingSectionLink section="docs">
                <BookOpen aria-hidden="true" />
                View API Docs
              </LandingSectionLink>
            )}
          </Button>
        )}
      </div>
    </section>
  );
}
