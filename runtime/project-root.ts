// Where the project's files are, from the code running now: under tsx the sources (runtime/, bin/, ...), under
// `npm start` the compiled bundle in dist/ (bin/build.mjs), whose chunks sit at a different depth. Both find the
// root by walking up to package.json, so data files (generated/, .data/) resolve the same from either.
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

function rootAbove(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(at) === at) throw new Error(`no package.json above ${dir}`);
  }
}

const here = dirname(fileURLToPath(import.meta.url));
export const projectRoot = rootAbove(here);
/** whether this is the compiled bundle (dist/) rather than the TypeScript sources */
export const bundled = here.startsWith(join(projectRoot, 'dist') + sep);
/** the directory holding the running code's bin/ and migrations/: dist/ when bundled, else the project root */
export const codeDir = bundled ? join(projectRoot, 'dist') : projectRoot;
/** the file name of a module of this code: `.js` when bundled, `.ts` under tsx */
export const codeFile = (name: string) => `${name}${bundled ? '.js' : '.ts'}`;
