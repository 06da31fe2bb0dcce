// /docs/guides: the project's guides (the Markdown pages under docs/, indexed by docs/README.md) as HTML pages of the
// documentation site, without credentials. /docs/guides is the index; /docs/guides/<name> is docs/<name>.md
// (/docs/guides/sandbox/processor is docs/sandbox/processor.md). Links between guides stay on the site; a link to
// another file of the repository is shown as its path.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { projectRoot } from '../project-root.js';
import { escapeHtml } from '../html.js';
import { page } from './html.js';
import { markdownToHtml } from './markdown.js';

export const GUIDES_PATH = '/docs/guides';
const GUIDES_DIR = join(projectRoot, 'docs');
const INDEX = 'README';

/** Every guide's name: its path under docs/ without `.md`, with `/` between folders. */
export function guideNames(dir = GUIDES_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => file.slice(0, -3).split(sep).join('/'))
    .sort();
}

const urlOf = (name: string) => (name === INDEX ? GUIDES_PATH : `${GUIDES_PATH}/${name}`);

/** A link of guide `from` as the site writes it: another guide's page (with its anchor), or null outside docs/. */
export function guideHref(from: string, href: string, names: ReadonlySet<string>): string | null {
  if (/^[a-z]+:/i.test(href)) return href;
  if (href.startsWith('#')) return href;
  const [path, anchor] = href.split('#', 2);
  const target = posix.normalize(posix.join(posix.dirname(from), path));
  const name = target.endsWith('.md') ? target.slice(0, -3) : target.replace(/\/$/, '/README');
  if (!names.has(name)) return null;
  return urlOf(name) + (anchor ? `#${anchor}` : '');
}

const cache = new Map<string, string>();

/** The page of the guide the path names, or undefined when no guide has that name. */
export function guidePage(path: string): string | undefined {
  const name = path === GUIDES_PATH ? INDEX : path.slice(GUIDES_PATH.length + 1);
  const names = new Set(guideNames());
  if (!names.has(name)) return undefined;
  let html = cache.get(name);
  if (html === undefined) {
    const source = readFileSync(join(GUIDES_DIR, ...name.split('/')) + '.md', 'utf8');
    const title = /^# (.*)$/m.exec(source)?.[1] ?? name;
    const file = relative(projectRoot, join(GUIDES_DIR, `${name}.md`)).split(sep).join('/');
    html = page(`${title} (guide)`, `<main class="docs">
${markdownToHtml(source, (href) => guideHref(name, href, names))}
<p><small>This page is <code>${escapeHtml(file)}</code> in the repository. <a href="${GUIDES_PATH}">All guides</a>.</small></p>
</main>`);
    cache.set(name, html);
  }
  return html;
}
