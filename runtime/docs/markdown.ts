// The guides (docs/*.md) as HTML, by marked (GitHub-flavoured Markdown): headings carry GitHub's anchors, so a
// link to `page.md#section` lands where it does on GitHub, and every link's target goes through the caller, which
// keeps links between guides on the site and shows a link to another file of the repository as its path.
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from '../html.js';

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(text: string): string {
  return text.toLowerCase().trim().replace(/[^\p{L}\p{N}_\- ]/gu, '').replace(/ /g, '-');
}

/** The heading's text as GitHub reads it for the anchor: inline code and emphasis marks dropped, links' text kept. */
export function headingText(source: string): string {
  return source.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
}

/** The page's HTML; `link` maps a link's target to the href to write, or null to show it as text. */
export function markdownToHtml(source: string, link: (href: string) => string | null): string {
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth, text }: Tokens.Heading) {
        return `<h${depth} id="${escapeHtml(headingAnchor(headingText(text)))}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      link({ href, tokens }: Tokens.Link) {
        const label = this.parser.parseInline(tokens);
        const to = link(href);
        return to === null ? `${label} (<code>${escapeHtml(href)}</code>)` : `<a href="${escapeHtml(to)}">${label}</a>`;
      },
    },
  });
  return marked.parse(source, { async: false });
}
