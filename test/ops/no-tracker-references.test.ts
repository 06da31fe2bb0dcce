// No file points at the issue tracker: a reference to an issue by its number sends the reader outside the
// repository (and means nothing once the tracker moves or is gone), where a comment should say the requirement
// itself in words. This check reads every text file git knows of (tracked, or new and not ignored) and fails naming
// file:line for each reference, and on a file named after an issue. Migrations are frozen history and keep theirs;
// generated/ is written from spec/, which is read here; node_modules/ and dist/ are not ours.
// A bare `#N` is not looked for: it is the changelog's own numbering (`2026-08-21#33`, `#33` in a test's name), and
// `#222` a colour.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../runtime/project-root.js';

/** The word issue (or issues) and a number, spaced, joined or with `#`, `/`, `-`, `_`; a pull request or ticket by `#`
 * number; a pull request URL. */
const TRACKER_REFERENCE = /\bissues?[\s_/-]*#?\d+|\b(?:PR|pull request|ticket)\s*#\d+|\/pull\/\d+/i;
const NOT_SCANNED = /^(?:migrations|node_modules|dist|generated)\//;

export interface Reference { file: string; line: number; text: string }

/** The tracker references in one file: its name (line 0) and each line that holds one. */
export function referencesIn(file: string, text: string): Reference[] {
  const found: Reference[] = [];
  if (TRACKER_REFERENCE.test(file)) found.push({ file, line: 0, text: file });
  text.split('\n').forEach((line, i) => {
    const match = TRACKER_REFERENCE.exec(line);
    if (match) found.push({ file, line: i + 1, text: match[0] });
  });
  return found;
}

function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: projectRoot, encoding: 'utf8', maxBuffer: 64 << 20 });
  return listed.split('\0').filter((f) => f && !NOT_SCANNED.test(f)).sort();
}

const t = suite('no tracker references');

t('the scanner finds references in text and file names, and leaves changelog numbers and colours alone', () => {
  const word = 'issue';
  const text = [
    `// as ${word} 18 asked`, `// (${word} #35, item 6)`, `see ${word}s/12`, `const a = 1; // ${'Issue'} 7`,
    '// changelog 2026-08-21#33', "t('#42 before 2026-08-07 ...')", 'color: #222;', '// we issue refunds', '// tissue 3',
  ].join('\n');
  const found = referencesIn(`test/large_tables/${word}18-list-pages.test.ts`, text);
  assert.equal(found.map((r) => r.line), [0, 1, 2, 3, 4]);
});

t('no tracked text file refers to the issue tracker (say the requirement in words instead)', () => {
  const found = repositoryFiles().flatMap((file) => {
    const full = join(projectRoot, file);
    // A file git still lists but the work tree has moved or deleted is not there to read.
    if (!existsSync(full) || !statSync(full).isFile()) return [];
    const text = readFileSync(full, 'utf8');
    return text.includes('\0') ? referencesIn(file, '') : referencesIn(file, text);
  });
  assert.equal(found.map((r) => `${r.file}:${r.line}: ${r.text}`), []);
});

t.run();
