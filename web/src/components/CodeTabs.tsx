import { CheckIcon, CopyIcon } from 'lucide-react';
import { SAMPLE_LANGUAGE_LABELS, SAMPLE_LANGUAGES, type SampleLanguage } from '@common/samples';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCopy } from '@/lib/use-copy';
import { cn } from '@/lib/utils';

export interface CodeTabsProps {
  /** What the code does, e.g. "POST /verify": names the tab list and the copy button. */
  title: string;
  /** The rendered sample per language (from @common/samples, so what is shown is what is tested). */
  samples: Readonly<Record<SampleLanguage, string>>;
  language: SampleLanguage;
  onLanguageChange: (language: SampleLanguage) => void;
  className?: string;
}

const isLanguage = (value: string): value is SampleLanguage => (SAMPLE_LANGUAGES as readonly string[]).includes(value);

/** A code sample in cURL / JavaScript / Python / PHP tabs, with a copy button that says "Copied" for 2 s. */
export function CodeTabs({ title, samples, language, onLanguageChange, className }: CodeTabsProps) {
  const { copied, copy } = useCopy();
  const isCopied = copied === language;
  return (
    <Tabs
      value={language}
      onValueChange={(value) => isLanguage(value) && onLanguageChange(value)}
      className={cn('min-w-0 gap-0 overflow-hidden rounded-xl border border-slate-800 bg-slate-950 text-slate-100 shadow-sm', className)}
    >
      <div className="flex items-center justify-between gap-2 border-b border-slate-800 px-2 py-1.5">
        <TabsList aria-label={`${title}: language`} className="h-8 bg-transparent p-0 text-slate-400">
          {SAMPLE_LANGUAGES.map((lang) => (
            <TabsTrigger
              key={lang}
              value={lang}
              className="px-2.5 text-xs hover:text-white data-[state=active]:bg-white/10 data-[state=active]:text-white sm:px-3"
            >
              {SAMPLE_LANGUAGE_LABELS[lang]}
            </TabsTrigger>
          ))}
        </TabsList>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          onClick={() => copy(language, samples[language], { title: 'Code Copied', description: `${SAMPLE_LANGUAGE_LABELS[language]} for ${title}` })}
          className="h-7 shrink-0 gap-1.5 px-2 text-xs text-slate-300 hover:bg-white/10 hover:text-white"
          aria-label={`${isCopied ? 'Copied' : 'Copy'} ${SAMPLE_LANGUAGE_LABELS[language]} code for ${title}`}
        >
          {isCopied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
          <span aria-hidden="true">{isCopied ? 'Copied' : 'Copy'}</span>
        </Button>
        <span role="status" className="sr-only">
          {isCopied ? 'Copied to clipboard' : ''}
        </span>
      </div>
      {SAMPLE_LANGUAGES.map((lang) => (
        // The code itself takes focus (one tab stop), so a long line can be scrolled from the keyboard.
        <TabsContent key={lang} value={lang} tabIndex={-1} className="rounded-none">
          <pre
            tabIndex={0}
            aria-label={`${SAMPLE_LANGUAGE_LABELS[lang]} code for ${title}`}
            className="overflow-x-auto px-3 py-4 text-xs leading-relaxed outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset sm:p-4 sm:text-[0.8125rem]"
          >
            <code className="font-mono">{samples[lang]}</code>
          </pre>
        </TabsContent>
      ))}
    </Tabs>
  );
}
