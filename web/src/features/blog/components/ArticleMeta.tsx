import { CalendarDays, Clock } from 'lucide-react';
import { cardTags, formatPublishDate, type Article } from '@common/blog';
import { Badge } from '@/components/ui/badge';

export function CategoryBadge({ category }: { category: string }) {
  return <Badge variant="secondary">{category}</Badge>;
}

export function ReadTime({ readTime }: { readTime: string }) {
  return (
    <span className="inline-flex items-center gap-1 text-sm text-muted-foreground">
      <Clock className="size-3.5" aria-hidden="true" />
      {readTime}
    </span>
  );
}

/** Author and date, as cards and the post header show them. */
export function Byline({ article }: { article: Article }) {
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
      <span className="font-medium text-foreground">{article.author}</span>
      <span className="inline-flex items-center gap-1">
        <CalendarDays className="size-3.5" aria-hidden="true" />
        <time dateTime={article.publishDate}>{formatPublishDate(article.publishDate)}</time>
      </span>
    </p>
  );
}

/** The first three tags and "+N" for the rest (SPEC §9); `all` shows every tag (the post page). */
export function TagList({ tags, all = false }: { tags: readonly string[]; all?: boolean }) {
  const { shown, hidden } = all ? { shown: [...tags], hidden: 0 } : cardTags(tags);
  return (
    <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
      {shown.map((tag) => (
        <li key={tag}>
          <Badge variant="outline" className="font-normal">
            {tag}
          </Badge>
        </li>
      ))}
      {hidden > 0 && (
        <li>
          <Badge variant="outline" className="font-normal" title={tags.slice(tags.length - hidden).join(', ')}>
            <span aria-hidden="true">+{hidden}</span>
            <span className="sr-only">and {hidden} more</span>
          </Badge>
        </li>
      )}
    </ul>
  );
}
