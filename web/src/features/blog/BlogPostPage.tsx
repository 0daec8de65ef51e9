import { useEffect } from 'react';
import { ArrowLeft, FileQuestion } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { articlePageTitle, articlePath, relatedArticles } from '@common/blog';
import { Button } from '@/components/ui/button';
import { usePageOrigin } from '@/lib/page-origin';
import { useDocumentTitle } from '@/lib/use-document-title';
import { ARTICLES, findArticle, type BlogArticle } from './articles';
import { ArticleBody } from './components/ArticleBody';
import { ArticleCard } from './components/ArticleCard';
import { Byline, CategoryBadge, ReadTime, TagList } from './components/ArticleMeta';
import { BlogShell } from './components/BlogShell';
import { CallToAction } from './components/CallToAction';
import { ShareButtons } from './components/ShareButtons';

/** /blog/:id (SPEC "Blog"): one article, or "Post Not Found". */
export function BlogPostPage() {
  const { id } = useParams();
  const article = findArticle(id);
  return <BlogShell>{article ? <Post key={article.slug} article={article} /> : <PostNotFound />}</BlogShell>;
}

function Post({ article }: { article: BlogArticle }) {
  useDocumentTitle(articlePageTitle(article), article.excerpt);
  // A related article opens at its top, not where the previous one was scrolled to.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, []);
  const url = `${usePageOrigin()}${articlePath(article.slug)}`;
  const related = relatedArticles(article, ARTICLES);

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-12 lg:px-8">
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link to="/blog">
          <ArrowLeft aria-hidden="true" />
          All articles
        </Link>
      </Button>

      <article className="mx-auto mt-6 max-w-3xl">
        <header className="space-y-5 border-b pb-8">
          <div className="flex flex-wrap items-center gap-3">
            <CategoryBadge category={article.category} />
            <ReadTime readTime={article.readTime} />
          </div>
          <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">{article.title}</h1>
          <Byline article={article} />
          <TagList tags={article.tags} all />
          <ShareButtons url={url} title={article.title} />
        </header>
        <p className="mt-8 text-lg leading-8 text-pretty text-muted-foreground">{article.excerpt}</p>
        <div className="mt-8">
          <ArticleBody article={article} />
        </div>

        <aside aria-label="About the author" className="mt-12 flex gap-4 rounded-xl border bg-muted/40 p-5">
          <span aria-hidden="true" className="flex size-12 shrink-0 items-center justify-center rounded-full bg-primary text-lg font-semibold text-primary-foreground">
            {initials(article.author)}
          </span>
          <div className="space-y-1">
            <p className="font-semibold">{article.author}</p>
            <p className="text-sm text-muted-foreground">{article.authorRole}</p>
            <p className="pt-1 text-sm leading-relaxed">{article.authorBio}</p>
          </div>
        </aside>

        <div className="mt-12">
          <CallToAction title="Start verifying with TOTP today" docs={false} />
        </div>
      </article>

      {related.length > 0 && (
        <section aria-labelledby="related-title" className="mx-auto mt-16 max-w-5xl space-y-6">
          <h2 id="related-title" className="text-2xl font-semibold tracking-tight">
            Related articles
          </h2>
          <ul className="grid gap-6 md:grid-cols-2">
            {related.map((other) => (
              <li key={other.slug}>
                <ArticleCard article={other} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
}

function PostNotFound() {
  useDocumentTitle('Post Not Found · Sixdigit Blog');
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col items-center px-4 py-20 text-center sm:px-6">
      <FileQuestion className="size-12 text-muted-foreground" aria-hidden="true" />
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Post Not Found</h1>
      <p className="mt-3 text-muted-foreground">The article you are looking for does not exist or has been moved.</p>
      <Button asChild className="mt-6">
        <Link to="/blog">
          <ArrowLeft aria-hidden="true" />
          Back to Blog
        </Link>
      </Button>
    </div>
  );
}
