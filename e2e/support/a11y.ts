/**
 * A small accessibility smoke check, run in the page, for when axe-core is not available:
 * every form control, button and link must have an accessible name, and every image an alt.
 * It approximates the accessible-name computation (aria-labelledby, aria-label, <label>,
 * text content, title, alt), which is enough to catch the usual "icon-only button" and
 * "input without a label" mistakes. Hidden elements are ignored.
 */
import type { Page } from 'playwright-core';

export interface A11yProblem {
  problem: string;
  element: string;
}

export async function findA11yProblems(page: Page): Promise<A11yProblem[]> {
  return page.evaluate(() => {
    const problems: { problem: string; element: string }[] = [];

    const isHidden = (el: Element): boolean => {
      if (el.closest('[hidden], [aria-hidden="true"], [inert]')) return true;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') return true;
      // sr-only content is hidden visually but not from assistive technology: keep it.
      return (el as HTMLElement).getClientRects().length === 0 && !el.closest('.sr-only');
    };

    const textOf = (el: Element): string => {
      let text = '';
      for (const node of Array.from(el.childNodes)) {
        if (node.nodeType === Node.TEXT_NODE) text += node.textContent ?? '';
        else if (node instanceof Element) {
          if (node.getAttribute('aria-hidden') === 'true') continue;
          if (node instanceof HTMLImageElement) text += node.alt;
          else if (node.getAttribute('aria-label')) text += node.getAttribute('aria-label');
          else if (node instanceof SVGElement) {
            const title = node.querySelector('title');
            text += title?.textContent ?? '';
          } else text += textOf(node);
        }
      }
      return text;
    };

    const nameOf = (el: Element): string => {
      const labelledBy = el.getAttribute('aria-labelledby');
      if (labelledBy) {
        const text = labelledBy
          .split(/\s+/)
          .map((id) => document.getElementById(id))
          .filter((n): n is HTMLElement => n !== null)
          .map((n) => n.textContent ?? '')
          .join(' ')
          .trim();
        if (text) return text;
      }
      const aria = el.getAttribute('aria-label')?.trim();
      if (aria) return aria;
      if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) {
        const labels = Array.from(el.labels ?? [])
          .map((l) => l.textContent ?? '')
          .join(' ')
          .trim();
        if (labels) return labels;
        if (el instanceof HTMLInputElement && ['submit', 'button', 'reset'].includes(el.type)) return el.value;
      } else {
        const text = textOf(el).trim();
        if (text) return text;
      }
      return el.getAttribute('title')?.trim() ?? '';
    };

    const describe = (el: Element): string => {
      const html = el.outerHTML.replace(/\s+/g, ' ');
      return html.length > 160 ? `${html.slice(0, 160)}…` : html;
    };

    const controls = document.querySelectorAll(
      'input:not([type="hidden"]), select, textarea, [role="textbox"], [role="combobox"], [role="slider"], [role="checkbox"], [role="switch"]',
    );
    for (const el of Array.from(controls)) {
      if (isHidden(el)) continue;
      if (!nameOf(el)) problems.push({ problem: 'form control without an accessible label', element: describe(el) });
    }
    for (const el of Array.from(document.querySelectorAll('button, [role="button"], a[href], [role="link"], [role="menuitem"], [role="tab"]'))) {
      if (isHidden(el)) continue;
      if (!nameOf(el)) problems.push({ problem: `${el.tagName.toLowerCase()} without an accessible name`, element: describe(el) });
    }
    for (const el of Array.from(document.querySelectorAll('img'))) {
      if (isHidden(el)) continue;
      if (!el.hasAttribute('alt')) problems.push({ problem: 'img without alt', element: describe(el) });
    }
    if (!document.documentElement.lang) problems.push({ problem: 'html element without lang', element: '<html>' });
    if (document.querySelectorAll('main, [role="main"]').length !== 1) {
      problems.push({ problem: 'page should have exactly one main landmark', element: `${document.querySelectorAll('main').length} <main>` });
    }
    return problems;
  });
}

/** Pixels the page overflows the viewport horizontally (0 when it fits). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth));
}

/**
 * Whether the focused element shows a visible focus indicator: an outline, or a box-shadow
 * ring that differs from its unfocused look (many buttons carry a shadow at rest). The element
 * is blurred to compare and then focused again.
 */
export async function focusIndicator(page: Page): Promise<{ tag: string; text: string; visible: boolean; focused: string; blurred: string }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: 'body', text: '', visible: false, focused: '', blurred: '' };
    const read = () => {
      const s = getComputedStyle(el);
      return { outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0, text: `outline: ${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}; box-shadow: ${s.boxShadow}`, shadow: s.boxShadow };
    };
    const focused = read();
    el.blur();
    const blurred = read();
    el.focus();
    return {
      tag: el.tagName.toLowerCase(),
      text: (el.textContent ?? '').trim(),
      visible: focused.outline || focused.shadow !== blurred.shadow,
      focused: focused.text,
      blurred: blurred.text,
    };
  });
}
