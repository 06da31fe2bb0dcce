// The frame every documentation page shares: the pages' navigation and styles in the server's HTML document.
import { htmlDocument } from '../html.js';

export const DOCS_NAV = [
  ['/docs', 'API reference'],
  ['/docs/changelog', 'Changelog'],
  ['/docs/v2-migration', 'v2 migration guide'],
  ['/docs/guides', 'Guides'],
] as const;

const STYLE = `<style>
  body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: #222; }
  nav.docs { padding: 10px 20px; background: #1b1b1b; color: #ccc; }
  nav.docs a { color: #fff; text-decoration: none; margin-right: 4px; }
  main.docs { max-width: 980px; margin: 0 auto; padding: 10px 20px 60px; }
  .badge { display: inline-block; font-size: 12px; padding: 0 6px; border-radius: 4px; margin-right: 6px; }
  .breaking { background: #fde2e1; color: #a40000; }
  .additive { background: #e3f5e1; color: #1d6b12; }
  .pending { background: #eee; color: #555; }
  .migration { background: #e4ecfb; color: #1c3f94; }
  code { background: #f3f3f3; padding: 0 3px; border-radius: 3px; }
  section.version { border-top: 1px solid #ddd; margin-top: 24px; }
  form.compare { background: #f7f7f7; padding: 12px; border-radius: 6px; }
  table.crossing td { padding: 2px 8px; vertical-align: top; }
  main.docs table { border-collapse: collapse; }
  main.docs th, main.docs td { border: 1px solid #ddd; padding: 2px 6px; vertical-align: top; text-align: left; }
  main.docs pre { background: #f3f3f3; padding: 8px; overflow-x: auto; }
  main.docs pre code { padding: 0; }
</style>`;

/** `title` is plain text; `body` and `head` (what a page adds to <head>) are HTML the caller has escaped. */
export function page(title: string, body: string, head = ''): string {
  const nav = DOCS_NAV.map(([href, label]) => `<a href="${href}">${label}</a>`).join(' · ');
  return htmlDocument({
    title,
    head: `<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">\n${STYLE}\n${head}`,
    body: `<nav class="docs">${nav}</nav>\n${body}`,
  });
}
