// Where a project's parts are: the generator runs on any project folder (spec/, handlers/, generated/ by default;
// examples/library is one), not only this repository's. Emitters write imports as if the project were this
// repository (`../runtime/...` from generated/, `../../runtime/...` from handlers/<area>/); relink() points them at
// where the runtime, the handlers and the spec really are from where the file is written.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The framework's runtime, beside the generator. */
const FRAMEWORK_RUNTIME = join(dirname(fileURLToPath(import.meta.url)), '..', 'runtime');

export interface ProjectPaths {
  /** the project folder: spec/ and handlers/ are read and written inside it */
  root: string;
  spec: string;
  handlers: string;
  /** where generated files go */
  out: string;
  /** the runtime generated code imports: the project's own runtime/ when it has one (a full copy), else the framework's */
  runtime: string;
}

export function projectPaths(root: string, out?: string): ProjectPaths {
  const own = join(root, 'runtime');
  return {
    root, spec: join(root, 'spec'), handlers: join(root, 'handlers'), out: out ?? join(root, 'generated'),
    runtime: existsSync(own) ? own : FRAMEWORK_RUNTIME,
  };
}

/** The project folder a spec folder belongs to (`--spec DIR`: the project holds DIR as its spec/). */
export function rootOfSpec(specDir: string): string {
  const dir = resolve(specDir);
  if (!dir.endsWith(`${sep}spec`)) throw new Error(`--spec ${specDir}: a project's spec folder is named spec/ (beside handlers/)`);
  return dirname(dir);
}

const RELATIVE_IMPORT = /(['"])((?:\.\.\/)+)(runtime|handlers|spec)\//g;

/**
 * A file's text with its relative imports of runtime/, handlers/ and spec/ pointed at where they really are.
 * `assumedDir`: the folder the emitter wrote the file for (in a project laid out like this repository);
 * `actualDir`: where it is written. Unchanged when the two layouts agree.
 */
export function relink(text: string, paths: ProjectPaths, assumedDir: string, actualDir: string): string {
  const actual = { runtime: paths.runtime, handlers: paths.handlers, spec: paths.spec } as const;
  return text.replace(RELATIVE_IMPORT, (match, quote: string, ups: string, part: keyof typeof actual) => {
    if (resolve(assumedDir, ups, part) !== join(paths.root, part)) return match;
    let path = relative(actualDir, actual[part]).split(sep).join('/');
    if (!path.startsWith('.')) path = `./${path}`;
    return `${quote}${path}/`;
  });
}
