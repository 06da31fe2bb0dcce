// Tests reach states through the product (API, CLI, clock advance), not by writing product tables in SQL: a test that
// writes a row the product never would proves nothing about the product. This check reads every .ts file under test/
// (statement-wise, through the TypeScript parser, so chains over many lines are seen whole) and fails on any SQL
// write to a table the migrations create, unless the write's line, its statement's first line or the line just
// above either says `// sql-state-write: <why the product cannot or must not reach that state>` (or, on a line inside
// a SQL string, `-- sql-state-write: <why>`).
// Writes are knex builder writes (`db('t')….update/insert/del/delete/increment/decrement/upsert(`, `.into('t')`,
// `.table('t')`) and raw SQL in any string (insert into / update … set / delete from / truncate / merge into).
// Tables a test creates for itself are not product tables, so they are not checked.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ts } from 'ts-morph';
import { createKnex } from '../../runtime/db.js';
import { ensureDatabase, dropDatabase } from '../../runtime/bootstrap.js';
import { randomToken } from '../../runtime/ids.js';
import { projectRoot } from '../../runtime/project-root.js';

export interface Write { file: string; line: number; table: string; how: string }

// `--` too: inside a SQL string over many lines, a SQL comment is the comment that can sit on the write's own line.
const MARKER = /(?:\/\/|--)\s*sql-state-write:\s*\S*\w/;
const BUILDER_WRITES = new Set(['update', 'insert', 'del', 'delete', 'increment', 'decrement', 'upsert', 'truncate']);
/** Every write above needs one of these words, so a file without any is not parsed. */
const MAYBE_WRITE = /\.\s*(?:update|insert|del|delete|increment|decrement|upsert|truncate)\s*\(|\b(?:insert|update|delete|truncate|merge)\b/i;
/** Calls in a knex chain that name its table. */
const TABLE_CALLS = new Set(['table', 'from', 'into', 'updateFrom']);
// `update x set` (not the word "update" in prose), `delete from x`, `insert into x`, `truncate [table] x, y`.
const RAW_WRITE = /\b(insert\s+into|update(?:\s+only)?|delete\s+from(?:\s+only)?|merge\s+into|truncate(?:\s+table)?(?:\s+only)?)\s+((?:"?[\w$]+"?\.)?"?[\w$]+"?(?:\s*,\s*(?:"?[\w$]+"?\.)?"?[\w$]+"?)*)/gi;

function bareName(text: string): string {
  // 'payments as p', 'public.payments', '"payments"' → payments; another schema's table keeps its schema
  // ('graphile_worker._private_jobs'), so it never matches a product table.
  const first = text.trim().split(/\s+/)[0] ?? '';
  return first.replace(/"/g, '').toLowerCase().replace(/^public\./, '');
}

function literalText(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return undefined;
}

/** A string constant's value when `name` is a `const name = '…'` of this file. */
function constantValue(source: ts.SourceFile, name: string): string | undefined {
  let found: string | undefined;
  const visit = (node: ts.Node) => {
    if (found !== undefined) return;
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name) found = literalText(node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The table argument of a chain call: a literal, a file constant, or '?' when only run time knows it. */
function tableArgument(source: ts.SourceFile, arg: ts.Expression | undefined): string | undefined {
  if (!arg) return undefined;
  const text = literalText(arg);
  if (text !== undefined) return bareName(text);
  if (ts.isIdentifier(arg)) {
    const value = constantValue(source, arg.text);
    return value === undefined ? '?' : bareName(value);
  }
  if (ts.isTemplateExpression(arg) || ts.isPropertyAccessExpression(arg) || ts.isElementAccessExpression(arg)) return '?';
  return undefined;
}

/** Whether a call's callee reads as a knex instance or transaction (db, app.db, trx, knex, tx, client, sql). */
function knexCallee(callee: ts.Expression): boolean {
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
  return /^(db|trx|tx|knex|k|sql|database|client|conn|connection|transaction)$/i.test(name) || /(Db|Trx|Knex)$/.test(name);
}

/** The tables a builder chain names: its root `db('t')` call and any `.table/.from/.into('t')` along it. */
function chainTables(source: ts.SourceFile, call: ts.CallExpression): string[] {
  const tables: string[] = [];
  // Down the chain (towards the root).
  let node: ts.Expression = call;
  for (;;) {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isPropertyAccessExpression(callee) && !knexCallee(callee)) {
        if (TABLE_CALLS.has(callee.name.text)) {
          const table = tableArgument(source, node.arguments[0]);
          if (table) tables.push(table);
        }
        // db.table('t'), trx.insert(...).into('t') roots
        node = callee.expression;
        continue;
      }
      if (knexCallee(callee)) {
        const table = tableArgument(source, node.arguments[0]);
        if (table) tables.push(table);
      }
      break;
    }
    if (ts.isPropertyAccessExpression(node) || ts.isNonNullExpression(node) || ts.isParenthesizedExpression(node) || ts.isAwaitExpression(node)) {
      node = node.expression;
      continue;
    }
    break;
  }
  // Up the chain (calls made on this one's result, e.g. `.insert(row).into('t')`).
  let up: ts.Node = call;
  while (ts.isPropertyAccessExpression(up.parent) && up.parent.expression === up && ts.isCallExpression(up.parent.parent)) {
    const outer = up.parent.parent;
    if (TABLE_CALLS.has(up.parent.name.text)) {
      const table = tableArgument(source, outer.arguments[0]);
      if (table) tables.push(table);
    }
    up = outer;
  }
  return tables;
}

/** Whether the chain starts at a knex instance: `db(...)`, `db.table(...)`, `trx.insert(...)`, `knex.from(...)`. */
function rootedAtKnex(call: ts.CallExpression): boolean {
  let node: ts.Expression = call;
  for (;;) {
    if (ts.isCallExpression(node)) {
      if (ts.isPropertyAccessExpression(node.expression) && !knexCallee(node.expression)) { node = node.expression.expression; continue; }
      return knexCallee(node.expression);
    }
    if (ts.isPropertyAccessExpression(node) || ts.isNonNullExpression(node) || ts.isParenthesizedExpression(node) || ts.isAwaitExpression(node)) {
      node = node.expression;
      continue;
    }
    return ts.isIdentifier(node) ? knexCallee(node) : false;
  }
}

function enclosingStatement(node: ts.Node): ts.Node {
  let current: ts.Node = node;
  while (current.parent && !ts.isSourceFile(current.parent) && !ts.isBlock(current.parent) && !ts.isModuleBlock(current.parent)
    && !ts.isCaseClause(current.parent) && !ts.isDefaultClause(current.parent)) current = current.parent;
  return current;
}

/** Every SQL write to a product table in one file's text; `justified` says whether its line carries the marker. */
export function scanSource(file: string, text: string, productTables: Set<string>): (Write & { justified: boolean })[] {
  // Parsing is the cost: a file that names no write verb at all cannot hold a write.
  if (!MAYBE_WRITE.test(text)) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lines = text.split('\n');
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line; // 0-based
  const marked = (line: number) => line >= 0 && line < lines.length && MARKER.test(lines[line]!);
  // The line above counts only as a comment of its own: another write's marker at the end of its line is not this one's.
  const markedAbove = (line: number) => marked(line - 1) && /^\s*(?:\/\/|--)/.test(lines[line - 1]!);
  const found: (Write & { justified: boolean })[] = [];
  const record = (site: ts.Node, at: number, table: string, how: string) => {
    const line = lineOf(at);
    const statementLine = lineOf(enclosingStatement(site).getStart(source));
    const justified = marked(line) || markedAbove(line) || marked(statementLine) || markedAbove(statementLine);
    found.push({ file, line: line + 1, table, how, justified });
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && BUILDER_WRITES.has(node.expression.name.text)) {
      const method = node.expression.name.text;
      const tables = chainTables(source, node);
      const product = tables.filter((t) => productTables.has(t));
      const at = node.expression.name.getStart(source);
      if (product.length > 0) record(node, at, [...new Set(product)].join(','), `.${method}(`);
      else if (tables.includes('?') && rootedAtKnex(node)) record(node, at, '? (table named at run time)', `.${method}(`);
    }
    const sql = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text
      : ts.isTemplateExpression(node) ? [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ${} ')
        : undefined;
    if (sql !== undefined) {
      for (const match of sql.matchAll(RAW_WRITE)) {
        const verb = match[1]!.toLowerCase();
        // `update x` is a write only when a `set` follows it.
        if (verb.startsWith('update') && !/^\s*(?:as\s+\w+\s+|\w+\s+)?set\b/i.test(sql.slice(match.index! + match[0].length))) continue;
        const tables = match[2]!.split(',').map(bareName).filter((t) => productTables.has(t));
        if (tables.length === 0) continue;
        // The line of the SQL verb itself, within a string over many lines.
        const offset = text.indexOf(match[0], node.getStart(source));
        record(node, offset >= 0 && offset < node.getEnd() ? offset : node.getStart(source), tables.join(','), verb.split(/\s+/)[0]!);
      }
      // A template's ${…} parts are code, which may hold writes of their own.
      if (!ts.isTemplateExpression(node)) return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return tsFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

const self = new URL(import.meta.url).pathname;

const t = suite('sql state writes in tests');
let productTables: Set<string>;

t.before(async () => {
  // The product tables: what the migrated template holds (a clone of it, as each test file has).
  const adminUrl = process.env.TEST_ADMIN_URL;
  const template = process.env.TEST_TEMPLATE;
  if (!adminUrl || !template) throw new Error('Run tests with `npm test`: it prepares the database');
  const name = `t_${randomToken(10).toLowerCase()}`;
  const db = createKnex(await ensureDatabase(adminUrl, name, template), 1);
  try {
    // migrations/ create tables in public; graphile-worker's own schema and knex's bookkeeping are not the product's.
    const { rows } = await db.raw(`select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'knex\\_migrations%'`);
    productTables = new Set(rows.map((r: { table_name: string }) => r.table_name.toLowerCase()));
  } finally {
    await db.destroy();
    await dropDatabase(adminUrl, name);
  }
});

t('the scanner sees builder chains over lines, raw SQL, constants, markers, and leaves scratch tables and prose alone', () => {
  const tables = new Set(['payments', 'members', 'ledger_entries']);
  const sample = [
    /* 1 */ `await app.db('payments')`,
    /* 2 */ `  .where({ id })`,
    /* 3 */ `  .update({ status: 'paid' });`,
    /* 4 */ `await app.db.raw("update payments set status = 'x' where id = ?", [id]);`,
    /* 5 */ `await app.db('scratch_rows').insert({ a: 1 }); await db('graphile_worker._private_jobs').delete();`,
    /* 6 */ `hash.update('payments'); map.delete('members');`,
    /* 7 */ `// sql-state-write: bulk seeding a million rows for a page plan`,
    /* 8 */ `await app.db('members').insert(rows);`,
    /* 9 */ `const TABLE = 'ledger_entries';`,
    /* 10 */ `await trx(TABLE).del(); // sql-state-write: corrupts on purpose`,
    /* 11 */ `test('update the payments list', () => {});`,
    /* 12 */ `await db.raw(\`delete from "members" where id = \${id}\`);`,
    /* 13 */ `await db.insert({ id }).into('payments');`,
    /* 14 */ `await db(table).increment('n', 1);`,
    /* 15 */ `await db.raw('truncate scratch, members');`,
    /* 16 */ `await db('payments').where({ id }).update({ status: 'paid' }); // sql-state-write:`,
    /* 17 */ `await db.raw(\`select 1;`,
    /* 18 */ `  insert into payments (id) -- sql-state-write: bulk seed`,
    /* 19 */ `  select 1\`);`,
    /* 20 */ `await db('members').del(); // sql-state-write: a reason for this line only`,
    /* 21 */ `await db('members').del();`,
    /* 22 */ `await db.raw(\`select \${await db('payments').insert(row)}\`);`,
  ].join('\n');
  const writes = scanSource('sample.ts', sample, tables);
  const brief = writes.map((w) => `${w.line}:${w.table}:${w.justified ? 'ok' : 'bad'}`);
  assert.equal(brief, [
    '3:payments:bad', '4:payments:bad', '8:members:ok', '10:ledger_entries:ok', '12:members:bad', '13:payments:bad',
    '14:? (table named at run time):bad', '15:members:bad', '16:payments:bad', '18:payments:ok',
    '20:members:ok', '21:members:bad', '22:payments:bad',
  ]);
});

t('every SQL write to a product table under test/ says why the product cannot or must not reach that state', () => {
  assert.ok(productTables.size > 20, `the migrated database has product tables (${productTables.size})`);
  const root = join(projectRoot, 'test');
  const unjustified: Write[] = [];
  for (const file of tsFiles(root)) {
    if (file === self) continue;
    const writes = scanSource(relative(projectRoot, file), readFileSync(file, 'utf8'), productTables);
    for (const w of writes) if (!w.justified) unjustified.push(w);
  }
  const list = unjustified.map((w) => `  ${w.file}:${w.line} ${w.how} ${w.table}`).join('\n');
  if (unjustified.length > 0) {
    throw new Error(`${unjustified.length} SQL writes to product tables in test/ without a reason: reach the state through `
      + `the product (API, CLI, sandbox clock advance) or add \`// sql-state-write: <why>\` on the line:\n${list}`);
  }
});

t.run();
