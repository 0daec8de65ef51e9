import { Check, Link2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useCopy } from '@/lib/use-copy';

export function shareLinks(url: string, title: string) {
  return {
    x: `https://x.com/intent/tweet?${new URLSearchParams({ text: title, url })}`,
    linkedin: `https://www.linkedin.com/sharing/share-offsite/?${new URLSearchParams({ url })}`,
  };
}

/** Brand marks (lucide has none): X and LinkedIn, drawn in the current colour. */
function XMark() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
      <path d="M18.244 2.25h3.308l-7.227 8.26 8.502 11.24H16.17l-5.214-6.817L4.99 21.75H1.68l7.73-8.835L1.254 2.25H8.08l4.713 6.231zm-1.161 17.52h1.833L7.084 4.126H5.117z" />
    </svg>
  );
}

function LinkedInMark() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
      <path d="M20.447 20.452h-3.554v-5.569c0-1.328-.027-3.037-1.852-3.037-1.853 0-2.136 1.445-2.136 2.939v5.667H9.351V9h3.414v1.561h.046c.477-.9 1.637-1.85 3.37-1.85 3.601 0 4.267 2.37 4.267 5.455v6.286zM5.337 7.433a2.062 2.062 0 1 1 0-4.125 2.062 2.062 0 0 1 0 4.125zM7.119 20.452H3.555V9h3.564v11.452zM22.225 0H1.771C.792 0 0 .774 0 1.729v20.542C0 23.227.792 24 1.771 24h20.451C23.2 24 24 23.227 24 22.271V1.729C24 .774 23.2 0 22.222 0z" />
    </svg>
  );
}

/** Share on X, LinkedIn, or copy the article's address (with a toast). */
export function ShareButtons({ url, title }: { url: string; title: string }) {
  const { copied, copy } = useCopy();
  const links = shareLinks(url, title);
  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Share this article">
      <span className="text-sm font-medium text-muted-foreground">Share</span>
      <Button asChild variant="outline" size="sm">
        <a href={links.x} target="_blank" rel="noopener noreferrer" aria-label="Share on X (Twitter)">
          <XMark />
          X
        </a>
      </Button>
      <Button asChild variant="outline" size="sm">
        <a href={links.linkedin} target="_blank" rel="noopener noreferrer" aria-label="Share on LinkedIn">
          <LinkedInMark />
          LinkedIn
        </a>
      </Button>
      <Button
        type="button"
        variant="outline"
        size="sm"
        onClick={() => void copy('link', url, { title: 'Link copied', description: 'The article\'s address is on your clipboard.' })}
      >
        {copied === 'link' ? <Check aria-hidden="true" /> : <Link2 aria-hidden="true" />}
        {copied === 'link' ? 'Copied' : 'Copy link'}
      </Button>
    </div>
  );
}
