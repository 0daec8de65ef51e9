import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const standardFontDataUrl = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';

/**
 * Opens a PDF with PDF.js (as a viewer would) and answers its pages and text, one string per
 * page with the text runs joined by spaces: a receipt "holds a figure" when its page text has it.
 */
export async function readPdf(bytes: Uint8Array): Promise<{ pages: number; text: string; info: Record<string, unknown> }> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl, isEvalSupported: false }).promise;
  try {
    const texts: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
    }
    const { info } = await pdf.getMetadata();
    return { pages: pdf.numPages, text: texts.join('\n').replace(/\s+/g, ' '), info: info as Record<string, unknown> };
  } finally {
    await pdf.destroy();
  }
}
