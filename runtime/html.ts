// The HTML this server writes itself (the documentation pages, and the hosted pages an API built on the runtime
// serves, such as a checkout form): one escaping for text from requests and the database, one document frame.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` as HTML: safe in an element and in a quoted attribute value. */
export const escapeHtml = (text: string | number): string => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);

export interface HtmlDocument {
  /** plain text */
  readonly title: string;
  /** what follows the title in <head> (styles, links), HTML */
  readonly head: string;
  /** the page's content, HTML the caller has escaped */
  readonly body: string;
}

/** A whole document, in English, scaled to the device's width. */
export function htmlDocument({ title, head, body }: HtmlDocument): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${head}
</head>
<body>
${body}
</body>
</html>
`;
}
