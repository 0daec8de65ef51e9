import { CheckIcon, CopyIcon } from 'lucide-react';
import { DOCS_LANGUAGE_LABELS, DOCS_LANGUAGES, type DocsLanguage } from '@common/samples/sdk';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCopy } from '@/lib/use-copy';
import { cn } from '@/lib/utils';

export interface CodeTabsProps<L extends DocsLanguage> {
  /** What the code does, e.g. "POST /verify": names the tab list and the copy button. */
  title: string;
  /** The rendered sample per language (from @common/samples, so what is shown is what is tested); one tab each. */
  samples: Readonly<Partial<Record<L, string>>>;
  language: L;
  onLanguageChange: (language: L) => void;
  className?: string;
}

/**
 * A code sample in language tabs (cURL / JavaScript / Python / PHP, and on /docs the Node and
 * Python SDKs), with a copy button that says "Copied" for 2 s. A block without the chosen
 * language shows cURL.
 */
export function CodeTabs<L extends DocsLanguage>({ title, samples, language: chosen, onLanguageChange, className }: CodeTabsProps<L>) {
  const { copied, copy } = useCopy();
  const languages = DOCS_LANGUAGES.filter((lang): lang is L => samples[lang as L] !== undefined);
  const language = languages.includes(chosen) ? chosen : languages[0]!;
  const isLanguage = (value: string): value is L => (languages as readonly string[]).includes(value);
  const isCopied = copied === language;
  return (
    <Tabs
      value={language}
      onValueChange={(value) => isLanguage(value) && onLanguageChange(value)}
      className={cn('min-w-0 gap-0 overflow-hidden rounded-xl border border-slate-800 bg-slate-950 text-slate-100 shadow-sm', className)}
    >
      <div className="flex items-center justify-between gap-2 border-b border-slate-800 px-2 py-1.5">
        <TabsList aria-label={`${title}: language`} className="h-8 min-w-0 justify-start overflow-x-auto bg-transparent p-0 text-slate-400">
          {languages.map((lang) => (
            <TabsTrigger
              key={lang}
              value={lang}
              className="px-2.5 text-xs hover:text-white data-[state=active]:bg-white/10 data-[state=active]:text-white sm:px-3"
            >
              {DOCS_LANGUAGE_LABELS[lang]}
            </TabsTrigger>
          ))}
        </TabsList>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          onClick={() => copy(language, samples[language] ?? '', { title: 'Code Copied', description: `${DOCS_LANGUAGE_LABELS[language]} for ${title}` })}
          className="h-7 shrink-0 gap-1.5 px-2 text-xs text-slate-300 hover:bg-white/10 hover:text-white"
          aria-label={`${isCopied ? 'Copied' : 'Copy'} ${DOCS_LANGUAGE_LABELS[language]} code for ${title}`}
        >
          {isCopied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
          <span aria-hidden="true">{isCopied ? 'Copied' : 'Copy'}</span>
        </Button>
        <span role="status" className="sr-only">
          {isCopied ? 'Copied to clipboard' : ''}
        </span>
      </div>
      {languages.map((lang) => (
        // The code itself takes focus (one tab stop), so a long line can be scrolled from the keyboard.
        <TabsContent key={lang} value={lang} tabIndex={-1} className="rounded-none">
          <pre
            tabIndex={0}
            aria-label={`${DOCS_LANGUAGE_LABELS[lang]} code for ${title}`}
            className="overflow-x-auto px-3 py-4 text-xs leading-relaxed outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset sm:p-4 sm:text-[0.8125rem]"
          >
            <code className="font-mono">{samples[lang]}</code>
          </pre>
        </TabsContent>
      ))}
    </Tabs>
  );
}
