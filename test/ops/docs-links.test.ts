// The guides hold: every relative link in README.md, docs/ and bench/'s pages leads to a file that exists (and to a
// heading of it when it names an anchor), and every command they show is one the project has: `npm run <script>` a
// script of package.json, `npm run cli -- <command> --option` a command of the CLI (from its own --help) taking
// that option. A page moved or renamed, a heading reworded, a script or CLI command dropped fails here, naming the
// page and the line.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { projectRoot } from '../../runtime/project-root.js';
import { headingAnchor, headingText } from '../../runtime/docs/markdown.js';

const t = suite('ops: the guides\' links and commands');

function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => join(dir, f));
}
const PAGES = [join(projectRoot, 'README.md'), ...markdownUnder(join(projectRoot, 'docs')),
  ...markdownUnder(join(projectRoot, 'bench'))].sort();
const name = (file: string) => relative(projectRoot, file).split(sep).join('/');

interface Line { file: string; line: number; text: string; code: boolean }

/** Each line of a page, saying whether it is inside a fenced code block. */
function linesOf(file: string): Line[] {
  let fenced = false;
  return readFileSync(file, 'utf8').split('\n').map((text, i) => {
    const fence = /^\s*```/.test(text);
    if (fence) fenced = !fenced;
    return { file, line: i + 1, text, code: fenced || fence };
  });
}

/** The anchors of a page's headings, as GitHub makes them (a repeated heading's get -1, -2, ...). */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { text, code } of linesOf(file)) {
    const heading = code ? null : /^#{1,6} (.*)$/.exec(text);
    if (!heading) continue;
    const base = headingAnchor(headingText(heading[1]));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The text of a line outside inline code spans (links inside code are examples, not links). */
const outsideCode = (text: string) => text.replace(/`[^`]*`/g, '``');

t('every page is found', () => {
  assert.ok(PAGES.length > 20, `${PAGES.length} pages`);
  for (const must of ['README.md', 'docs/README.md', 'bench/README.md']) assert.ok(PAGES.map(name).includes(must), must);
});

t('every relative link leads to a file, and an anchor to a heading of it', () => {
  const broken: string[] = [];
  const anchors = new Map<string, Set<string>>();
  let checked = 0;
  for (const file of PAGES) {
    for (const { line, text, code } of linesOf(file)) {
      if (code) continue;
      for (const [, target] of outsideCode(text).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue;
        checked++;
        const [path, anchor] = target.split('#', 2);
        const to = path === '' ? file : join(dirname(file), path);
        const where = `${name(file)}:${line}: ${target}`;
        if (!existsSync(to)) { broken.push(`${where} (no such file)`); continue; }
        if (anchor === undefined) continue;
        if (statSync(to).isDirectory() || !to.endsWith('.md')) { broken.push(`${where} (an anchor into a file that is not a page)`); continue; }
        if (!anchors.has(to)) anchors.set(to, anchorsOf(to));
        if (!anchors.get(to)!.has(anchor)) broken.push(`${where} (no heading with that anchor)`);
      }
    }
  }
  assert.ok(checked > 50, `${checked} links checked`);
  assert.equal(broken, []);
});

const scripts = new Set(Object.keys(JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).scripts));

/** The CLI's commands and the options each takes, from its own help (which exits before opening a database). */
function cliCommands(): Map<string, Set<string>> {
  const help = execFileSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'bin', 'cli.ts'), '--help'],
    { cwd: projectRoot, encoding: 'utf8' });
  const commands = new Map<string, Set<string>>();
  const list = help.slice(help.indexOf('Commands:'), help.indexOf('Options:'));
  for (const [, usage] of list.matchAll(/^ {2}(\S.*)$/gm)) {
    const words = usage.split(' ');
    const command = words[1] !== undefined && /^[a-z]/.test(words[1]) ? `${words[0]} ${words[1]}` : words[0];
    commands.set(command, new Set([...usage.matchAll(/--[a-z-]+/g)].map((m) => m[0])));
  }
  return commands;
}

t('every command shown is a script of package.json or a command of the CLI, with options it takes', () => {
  const cli = cliCommands();
  assert.ok(cli.has('create-account') && cli.has('operator import-webhook'), [...cli.keys()].join(', '));
  const wrong: string[] = [];
  let checked = 0;
  for (const file of PAGES) {
    for (const { line, text } of linesOf(file)) {
      const where = `${name(file)}:${line}`;
      for (const [, script] of text.matchAll(/\bnpm (?:run(?: -s)?|run-script) ([a-z][\w:-]*)/g)) {
        checked++;
        if (!scripts.has(script)) wrong.push(`${where}: npm run ${script} (no such script)`);
      }
      for (const [, script] of text.matchAll(/\bnpm (start|test)\b/g)) {
        if (!scripts.has(script)) wrong.push(`${where}: npm ${script} (no such script)`);
      }
      for (const [, rest] of text.matchAll(/\bnpm run(?: -s)? cli -- ([^`|\n]*)/g)) {
        const words = rest.trim().split(/\s+/);
        if (!words[0] || words[0].startsWith('<') || words[0] === '--help') continue;
        checked++;
        const command = cli.has(`${words[0]} ${words[1]}`) ? `${words[0]} ${words[1]}` : words[0];
        const options = cli.get(command);
        if (!options) { wrong.push(`${where}: npm run cli -- ${words[0]} (no such CLI command)`); continue; }
        // Up to the end of this command: a shell `&&`, `;`, `|` or `)` starts another.
        const own = words.slice(0, words.findIndex((w) => /^(&&|;|\||\))/.test(w)) >>> 0);
        for (const option of own.filter((w) => /^--[a-z]/.test(w)).map((w) => w.replace(/[=].*$/, ''))) {
          if (!options.has(option) && option !== '--json' && option !== '--help') wrong.push(`${where}: npm run cli -- ${command} ${option} (not an option of the command)`);
        }
      }
    }
  }
  assert.ok(checked > 30, `${checked} commands checked`);
  assert.equal(wrong, []);
});

t.run();
