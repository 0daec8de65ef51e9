import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { articlePath, type Article } from '@common/blog';
import { Card, CardContent, CardFooter, CardHeader } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { Byline, CategoryBadge, ReadTime, TagList } from './ArticleMeta';

/** A card in the "All Articles" grid and in "Related articles". */
export function ArticleCard({ article, headingLevel = 3, featured = false }: { article: Article; headingLevel?: 2 | 3; featured?: boolean }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <Card className={cn('relative flex h-full flex-col transition-shadow focus-within:ring-2 focus-within:ring-ring hover:shadow-md', featured && 'border-primary/40')}>
      <CardHeader className="gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <CategoryBadge category={article.category} />
          <ReadTime readTime={article.readTime} />
        </div>
        <Heading className={cn('font-semibold tracking-tight text-balance', featured ? 'text-2xl sm:text-3xl' : 'text-lg')}>
          {/* The whole card is clickable through this link's stretched area. */}
          <Link to={articlePath(article.slug)} className="outline-none after:absolute after:inset-0 after:content-['']">
            {article.title}
          </Link>
        </Heading>
      </CardHeader>
      <CardContent className="flex-1 space-y-4">
        <p className={cn('leading-relaxed text-muted-foreground', featured ? 'text-base sm:text-lg' : 'text-sm')}>{article.excerpt}</p>
        <TagList tags={article.tags} />
      </CardContent>
      <CardFooter className="flex flex-wrap items-center justify-between gap-3">
        <Byline article={article} />
        <span aria-hidden="true" className="inline-flex items-center gap-1 text-sm font-medium text-primary">
          Read article <ArrowRight className="size-4" />
        </span>
      </CardFooter>
    </Card>
  );
}
