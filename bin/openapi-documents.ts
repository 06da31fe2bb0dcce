// Every version's OpenAPI document as files, for tools that read files (Redocly's lint, SDK generators): generated/
// holds them in one file (generated/openapi.json, each part once per shape: runtime/openapi-store.ts), and the server
// assembles what GET /openapi.json?version=<date> serves from it. This writes the same text.
//   npx tsx bin/openapi-documents.ts OUT_DIR [DATE...]   (default: every version) -> OUT_DIR/<date>.json
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../runtime/project-root.js';
import { readOpenApiDocument, storeFile } from '../runtime/openapi-store.js';

const [outDir, ...asked] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: npx tsx bin/openapi-documents.ts OUT_DIR [DATE...]');
  process.exit(2);
}
const generated = join(projectRoot, 'generated');
const dates = asked.length ? asked : Object.keys(JSON.parse(readFileSync(storeFile(generated), 'utf8')).versions);
mkdirSync(resolve(outDir), { recursive: true });
for (const date of dates) writeFileSync(join(resolve(outDir), `${date}.json`), readOpenApiDocument(generated, date));
console.log(`wrote ${dates.length} document${dates.length === 1 ? '' : 's'} to ${resolve(outDir)}`);
