// A select built with the query builder, compiled once per shape: a list builds the same statement on every request
// but for its values, and knex's compiler (identifier quoting, a scan of every raw fragment for `?`, the
// renumbering to $n over the whole ~2 KB text) cost GET /payments ~20 µs a request (CPU profile, `npm run bench`),
// about what separated it from same-work's fixed SQL. Here the builder is read as a shape (everything that can
// change the text) and its values (what knex binds); a shape seen before answers its text from memory and binds the
// new values in the order the compiler took them.
//
// The order is learnt, not assumed: the first time a shape is seen, the builder is compiled twice, once as it is
// and once with each value replaced by a marker. The shape is kept only when both texts are the same (no value
// reached the text) and every binding of the second is a marker (none was missed), which then gives each binding's
// value. A builder holding anything this does not read (a callback, a subquery, named bindings, `??` identifiers) is
// compiled by knex as before.
import type { Knex } from 'knex';

/** The statement's text (placeholders $1, $2, ...) and its values. */
export interface Compiled { sql: string; bindings: unknown[] }

interface Shape { sql: string; order: readonly number[] }

/** Marks a value's place in the second compile; not a plain object, so knex binds it as it is. */
class Marker {
  constructor(readonly slot: number) {}
}

/** Where a value sits in the builder, so that the first compile of a shape can put a marker there and back. */
type Holder = Record<string | number, unknown>;
interface Place { holder: Holder; key: string | number }

/** Shapes by their key; UNCACHEABLE for a shape whose text a value reached. Both maps stay bounded: the shapes are
 * those of the code's lists (a few per list), the texts those of its raw fragments. */
const shapes = new Map<string, Shape | typeof UNCACHEABLE>();
const UNCACHEABLE = 0;
const texts = new Map<string, number>();
const MAX_SHAPES = 5_000;
const MAX_TEXTS = 20_000;
/** Counts the clearings of `texts`: a key read across one mixes two numberings and is not looked up. */
let numbering = 0;

/** A short stand-in for a fragment's text in a shape's key (a constant string's hash is computed once). */
function textId(text: string): string {
  let id = texts.get(text);
  if (id === undefined) {
    if (texts.size >= MAX_TEXTS) {
      // A number names another text from now on: no key made with the old numbers may match again.
      texts.clear();
      shapes.clear();
      numbering++;
    }
    id = texts.size;
    texts.set(text, id);
  }
  return `#${id}`;
}

/** Builder properties that never change a select's text (events, the client, flags for the next call, the
 * connection it runs on). */
const IGNORED = new Set(['_events', '_eventsCount', '_maxListeners', 'client', 'and', '_debug', '_joinFlag', '_boolFlag',
  '_notFlag', '_asColumnFlag', '_connection']);
/** Statement types whose `value` is bound (knex's compiler: a parameter, or a list of them for whereIn). */
const BOUND_VALUE = new Set(['whereBasic', 'whereIn', 'havingBasic', 'havingIn']);

/** A builder read as its shape's key, its values and where each sits; each step answers false at what it cannot read. */
class Reader {
  key = '';
  values: unknown[] = [];
  places: Place[] = [];

  /** a bound value: a primitive, a date, or an array of primitives (not a plain object, which knex turns to JSON;
   * not a function, which it compiles; not undefined, which it refuses) */
  value(holder: Place['holder'], key: Place['key']): boolean {
    const v = holder[key];
    if (!(isScalar(v) || v instanceof Date || (Array.isArray(v) && v.every(isScalar)))) return false;
    this.key += '?';
    this.values.push(v);
    this.places.push({ holder, key });
    return true;
  }

  raw(raw: Knex.Raw): boolean {
    const { sql, bindings, _wrappedBefore: before, _wrappedAfter: after } = raw as unknown as
      { sql: string; bindings: unknown; _wrappedBefore?: string; _wrappedAfter?: string };
    if (bindings !== undefined && !Array.isArray(bindings)) return false;
    this.key += `R${textId(sql)}b${before === undefined ? '' : textId(before)}a${after === undefined ? '' : textId(after)}(`;
    if (bindings) for (let i = 0; i < bindings.length; i++) if (!this.value(bindings as unknown as Holder, i)) return false;
    this.key += ')';
    return true;
  }

  /** a part of the text: a primitive as it is, a raw fragment, or a list of them (column names) */
  text(v: unknown): boolean {
    if (v === null || v === undefined || typeof v === 'boolean' || typeof v === 'number') this.key += `${v},`;
    else if (typeof v === 'string') this.key += v.length > 40 ? `${textId(v)},` : `${v.length}:${v},`;
    else if (isRaw(v)) return this.raw(v);
    else if (Array.isArray(v)) {
      this.key += '[';
      for (const e of v) if (!this.text(e)) return false;
      this.key += ']';
    } else return false;
    return true;
  }

  statement(s: Record<string, unknown>): boolean {
    const bound = BOUND_VALUE.has(s.type as string);
    this.key += '{';
    for (const name of Object.keys(s)) {
      this.key += `${name}:`;
      const v = s[name];
      if (bound && name === 'value' && !isRaw(v)) {
        if (Array.isArray(v)) {
          this.key += `${v.length}[`;
          for (let i = 0; i < v.length; i++) if (!this.value(v as unknown as Holder, i)) return false;
          this.key += ']';
        } else if (!this.value(s, name)) return false;
      } else if (!this.text(v)) return false;
    }
    this.key += '}';
    return true;
  }

  single(single: Record<string, unknown>): boolean {
    for (const name of Object.keys(single)) {
      const v = single[name];
      if (name === 'skipBinding') {
        // limit or offset written into the text instead of bound
        if (Object.values(v as object).some((skip) => skip === true)) return false;
        continue;
      }
      this.key += `${name}=`;
      // knex writes no offset clause for 0: a 0 is part of the shape, any other offset a bound value
      if ((name === 'limit' || name === 'offset') && typeof v === 'number' && !(name === 'offset' && v === 0)) {
        if (!this.value(single, name)) return false;
      } else if (!this.text(v)) return false;
    }
    return true;
  }

  builder(q: Record<string, unknown>): boolean {
    for (const name of Object.keys(q)) {
      if (IGNORED.has(name)) continue;
      const v = q[name];
      if (name === '_statements') {
        for (const s of v as Record<string, unknown>[]) if (!this.statement(s)) return false;
      } else if (name === '_single') {
        this.key += '|';
        if (!this.single(v as Record<string, unknown>)) return false;
      } else {
        this.key += `|${name}=`;
        if (!this.text(v)) return false;
      }
    }
    return true;
  }
}

const isScalar = (v: unknown): boolean =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint';
const isRaw = (v: unknown): v is Knex.Raw => typeof v === 'object' && v !== null && (v as { isRawInstance?: boolean }).isRawInstance === true;

const nativeOf = (q: Knex.QueryBuilder): Compiled => {
  const { sql, bindings } = q.toSQL().toNative();
  return { sql, bindings: bindings as unknown[] };
};

/** `q` compiled (as knex would: text with $n placeholders and its bindings), from memory when its shape is known. */
export function compileBuilt(q: Knex.QueryBuilder): Compiled {
  const reader = new Reader();
  const started = numbering;
  if (!reader.builder(q as unknown as Record<string, unknown>) || numbering !== started) return nativeOf(q);
  const known = shapes.get(reader.key);
  if (known === UNCACHEABLE) return nativeOf(q);
  if (known) return { sql: known.sql, bindings: known.order.map((slot) => reader.values[slot]) };
  const compiled = nativeOf(q);
  if (shapes.size >= MAX_SHAPES) shapes.clear();
  shapes.set(reader.key, learn(q, reader, compiled));
  return compiled;
}

/** The shape's text and the slot of each binding, from a compile with markers in place of the values; UNCACHEABLE
 * unless it gives the same text and binds only markers. */
function learn(q: Knex.QueryBuilder, reader: Reader, compiled: Compiled): Shape | typeof UNCACHEABLE {
  const { places } = reader;
  places.forEach((p, slot) => { p.holder[p.key] = new Marker(slot); });
  let marked: Compiled;
  try {
    marked = nativeOf(q);
  } catch {
    return UNCACHEABLE;
  } finally {
    places.forEach((p, slot) => { p.holder[p.key] = reader.values[slot]; });
  }
  if (marked.sql !== compiled.sql || !marked.bindings.every((b) => b instanceof Marker)) return UNCACHEABLE;
  return { sql: compiled.sql, order: marked.bindings.map((b) => (b as Marker).slot) };
}
