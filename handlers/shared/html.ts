// The sandbox's few HTML pages: one plain layout, and escaping for what comes from the database.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** `title` is plain text; `body` is HTML the caller has escaped. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; padding: 0 1rem; color: #1a1a1a; }
  button { font: inherit; padding: .6rem 1rem; margin: .25rem .5rem .25rem 0; border-radius: .4rem; border: 1px solid #1a1a1a; background: #1a1a1a; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #1a1a1a; }
  .note { color: #666; font-size: .875rem; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
}
