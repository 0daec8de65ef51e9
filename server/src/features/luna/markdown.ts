/**
 * Account data (a company name, a payment reference, a webhook URL, an API caller's user id…)
 * placed into the Markdown Luna answers with, and which staff read on the desk. Anyone who can
 * name a business writes that text, so it must stay text: `[Approve](https://evil.example)` or
 * `![x](https://evil.example/pixel.png)` in a company name must not become a link or an image
 * (issue 18, item 3). Every interpolation of account or user data goes through one of these two.
 */

/** Invisible; placed inside `https://`, `www.` and `a@b` so GFM does not turn them into links. */
const WORD_JOINER = '\u2060';

/**
 * `value` as literal Markdown text: every ASCII punctuation character backslash-escaped (CommonMark
 * allows it for all of them, so nothing forms emphasis, links, images, code or HTML); line breaks
 * and other control characters turned into spaces so the value cannot start a block (heading,
 * list, fence); and GFM's bare-URL and e-mail autolinks — made from the decoded text, so escapes
 * do not stop them — broken by an invisible word joiner. For a value meant to be copied exactly
 * (a URL), use markdownCode instead.
 */
export function escapeMarkdown(value: string): string {
  return (
    value
      // eslint-disable-next-line no-control-regex -- control characters are what this removes
      .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
      .replace(/:(?=\/\/)|\b(?:www)(?=\.)|@/gi, `$&${WORD_JOINER}`)
      .replace(/[!-/:-@[-`{-~]/g, '\\$&')
  );
}

/**
 * `value` as an inline code span. Backslashes do not escape inside code, so the fence is one
 * backtick longer than the longest run of backticks in the value (CommonMark's own rule), with
 * spaces inside when the value starts or ends with a backtick.
 */
export function markdownCode(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const text = value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ');
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
