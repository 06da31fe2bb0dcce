// The layout of the pages this API hosts (checkout, transfers, app builds, the sandbox's simulated outside pages):
// one plain column under the page's title, in the runtime's HTML document (runtime/html.ts, which also escapes).
import { escapeHtml, htmlDocument } from '../../runtime/html.js';

const STYLE = `<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; padding: 0 1rem; color: #1a1a1a; }
  button { font: inherit; padding: .6rem 1rem; margin: .25rem .5rem .25rem 0; border-radius: .4rem; border: 1px solid #1a1a1a; background: #1a1a1a; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #1a1a1a; }
  .note { color: #666; font-size: .875rem; }
</style>`;

/** `title` is plain text; `body` is HTML the caller has escaped. */
export function page(title: string, body: string): string {
  return htmlDocument({ title, head: STYLE, body: `<h1>${escapeHtml(title)}</h1>\n${body}` });
}
