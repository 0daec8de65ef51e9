import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { projectPath } from '../../lib/paths';

/** The product documentation Luna answers from, written once in docs/product/*.md. */
export const DOCS_DIR = projectPath('docs', 'product');

export interface DocSection {
  id: string;
  /** the document's own title (its `# ` heading) */
  title: string;
  /** the section's `## ` heading */
  section: string;
  file: string;
  text: string;
}

/** One chunk per `## ` section, each keeping its document title and heading for citations. */
export function splitSections(file: string, markdown: string): DocSection[] {
  const title = /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? file;
  const parts = markdown.split(/^## /m).slice(1);
  return parts.map((part, i) => {
    const [heading = '', ...body] = part.split('\n');
    return { id: `${file}#${i}`, title, section: heading.trim(), file, text: body.join('\n').trim() };
  });
}

/** Words that carry no meaning for retrieval: a question made only of them must not match. */
const STOP_WORDS = new Set(
  'a an and are as at be but by can could do does did for from how i if in into is it its me my of on or our please should so tell that the their them then there these this to us was we what when where which who why will with would you your'.split(' '),
);
const processTerm = (term: string) => {
  const lower = term.toLowerCase();
  return STOP_WORDS.has(lower) || lower.length < 2 ? null : lower;
};

export class Knowledge {
  readonly sections: DocSection[];
  private readonly index: MiniSearch<DocSection>;

  constructor(sections: DocSection[]) {
    this.sections = sections;
    this.index = new MiniSearch<DocSection>({
      fields: ['section', 'text', 'title'],
      storeFields: ['id'],
      processTerm,
      searchOptions: { boost: { section: 3, title: 1.5 }, prefix: true, fuzzy: 0.15, combineWith: 'OR' },
    });
    this.index.addAll(sections);
  }

  static load(dir = DOCS_DIR): Knowledge {
    const files = readdirSync(dir).filter((f) => f.endsWith('.md')).sort();
    return new Knowledge(files.flatMap((f) => splitSections(f, readFileSync(join(dir, f), 'utf8'))));
  }

  /** The best sections for a question, with their scores (higher is better). */
  search(query: string, limit = 3): Array<{ section: DocSection; score: number }> {
    return this.index
      .search(query)
      .slice(0, limit)
      .map((hit) => ({ section: this.sections.find((s) => s.id === hit.id)!, score: hit.score }));
  }

  /** A section by its heading (exact words), for answers that know where they come from. */
  byHeading(heading: string): DocSection {
    const found = this.sections.find((s) => s.section.toLowerCase() === heading.toLowerCase());
    if (!found) throw new Error(`docs/product has no section "${heading}"`);
    return found;
  }
}

let shared: Knowledge | undefined;
/** Built once per process, on first use. */
export function knowledge(): Knowledge {
  shared ??= Knowledge.load();
  return shared;
}
