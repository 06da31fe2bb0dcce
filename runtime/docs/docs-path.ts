// Where the documentation site lives: its own module, so that runtime/app.ts can route to the site without loading it.
export const DOCS_PATH = '/docs';
