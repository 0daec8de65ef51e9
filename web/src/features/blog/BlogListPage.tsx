import { Rss } from 'lucide-react';
import { BLOG_DESCRIPTION, BLOG_TITLE, featuredArticle } from '@common/blog';
import { useDocumentTitle } from '@/lib/use-document-title';
import { ARTICLES } from './articles';
import { ArticleCard } from './components/ArticleCard';
import { BlogShell } from './components/BlogShell';
import { CallToAction } from './components/CallToAction';

/** /blog (SPEC "Blog"): the featured article, every other article in a grid, a call to action. */
export function BlogListPage() {
  useDocumentTitle(BLOG_TITLE, BLOG_DESCRIPTION);
  const featured = featuredArticle(ARTICLES);
  const others = ARTICLES.filter((a) => a.slug !== featured?.slug);

  return (
    <BlogShell>
      <div className="mx-auto w-full max-w-6xl space-y-14 px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
        <header className="max-w-3xl space-y-3">
          <p className="text-sm font-medium text-primary">Sixdigit Blog</p>
          <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">Authentication without the SMS bill</h1>
          <p className="text-lg text-pretty text-muted-foreground">
            Security, costs, integration and compliance for teams moving their one-time codes to TOTP.
          </p>
          <a href="/blog/feed.xml" className="inline-flex items-center gap-1.5 text-sm font-medium text-primary hover:underline">
            <Rss className="size-4" aria-hidden="true" />
            RSS feed
          </a>
        </header>

        {featured && (
          <section aria-labelledby="featured-title" className="space-y-4">
            <h2 id="featured-title" className="text-sm font-semibold tracking-wide text-muted-foreground uppercase">
              Featured article
            </h2>
            <ArticleCard article={featured} featured />
          </section>
        )}

        <section aria-labelledby="all-articles-title" className="space-y-6">
          <h2 id="all-articles-title" className="text-2xl font-semibold tracking-tight">
            All Articles
          </h2>
          {others.length === 0 ? (
            <p className="text-muted-foreground">No other articles yet.</p>
          ) : (
            <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
              {others.map((article) => (
                <li key={article.slug}>
                  <ArticleCard article={article} />
                </li>
              ))}
            </ul>
          )}
        </section>

        <CallToAction />
      </div>
    </BlogShell>
  );
}
