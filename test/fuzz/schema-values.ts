// Values derived from an operation's own JSON Schemas (the generated OpenAPI documents): a valid value for a schema,
// and the boundary and hostile values to try at one location of that schema.
import fc from 'fast-check';
import { Entries, Raw, deeplyNested } from './raw-json.js';
import { nastyString } from './arbitraries.js';

export type Schema = Record<string, any>;

/** Real ids of the fixtures by prefix (the fuzzer's own account's first), and a seeded source of choices. */
export interface IdPool {
  real(prefix: string): string[];
  prefixes(): string[];
}

export class Gen {
  private state: number;
  private counter = 0;
  constructor(readonly pool: IdPool, seed: number) {
    this.state = seed >>> 0;
  }

  /** mulberry32: a small seeded generator, so every request list is the same for the same seed */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** a fresh number for values that must be unique (codes, short links, usernames) */
  unique(): number {
    this.counter += 1;
    return this.counter;
  }

  /** n values of a fast-check arbitrary, seeded from this generator */
  sample<T>(arbitrary: fc.Arbitrary<T>, n: number): T[] {
    return fc.sample(arbitrary, { seed: Math.floor(this.next() * 2 ** 31), numRuns: n });
  }
}

export const typesOf = (s: Schema): string[] => ([] as string[]).concat(s.type ?? []);
const mainType = (s: Schema): string | undefined => typesOf(s).find((t) => t !== 'null');

/** The id prefixes a pattern such as ^plan_[A-Za-z0-9]+$ or ^(biz|prod)_[A-Za-z0-9]+$ stands for. */
export function prefixesOf(pattern: unknown): string[] {
  const m = /^\^\(?([a-z|]+)\)?_\[A-Za-z0-9\]\+\$$/.exec(typeof pattern === 'string' ? pattern : '');
  return m ? m[1].split('|').map((p) => `${p}_`) : [];
}

/** Patterns whose random matches would rarely mean anything to the handler: a value that does. */
const MEANINGFUL: Record<string, string> = {
  '^[a-z]{3}$': 'usd',
  '^[0-9]{12,19}$': '4242424242424242',
};

const FUTURE = '2030-01-01T00:00:00Z';

function validString(s: Schema, g: Gen): string {
  const prefixes = prefixesOf(s.pattern);
  if (prefixes.length) {
    const prefix = prefixes[0];
    return g.pool.real(prefix)[0] ?? `${prefix}Fuzz${g.unique()}`;
  }
  if (s.format === 'date-time') return FUTURE;
  if (s.format === 'date') return '2026-01-01';
  if (s.format === 'uri') return 'https://example.com/fuzz';
  if (s.format === 'email') return `fuzz${g.unique()}@example.com`;
  if (typeof s.pattern === 'string') {
    return MEANINGFUL[s.pattern] ?? g.sample(fc.stringMatching(new RegExp(s.pattern)), 1)[0];
  }
  const text = `Fuzz ${g.unique()}`;
  return text.padEnd(s.minLength ?? 0, 'x').slice(0, s.maxLength ?? text.length);
}

const within = (value: number, s: Schema) => Math.min(Math.max(value, s.minimum ?? value), s.maximum ?? value);

/** An everyday integer of the range: its middle when the range is narrow (a month, a year, a page size), else 1. */
function ordinaryInteger(s: Schema): number {
  const narrow = typeof s.minimum === 'number' && typeof s.maximum === 'number' && s.maximum - s.minimum <= 1_000_000;
  return narrow ? Math.floor((s.minimum + s.maximum) / 2) : within(1, s);
}

/** A value the schema accepts; `full`: objects carry every property, not only the required ones. */
export function validValue(s: Schema, g: Gen, full = false): unknown {
  if (s.anyOf) return validValue(s.anyOf.find((a: Schema) => mainType(a)) ?? s.anyOf[0], g, full);
  if (s.default !== undefined) return structuredClone(s.default);
  if (Array.isArray(s.enum)) return g.pick(s.enum.filter((v: unknown) => v !== null));
  switch (mainType(s)) {
    case 'string': return validString(s, g);
    case 'integer': return ordinaryInteger(s);
    case 'number': return within(1, s);
    case 'boolean': return g.pick([true, false]);
    case 'array': return s.minItems || full ? [validValue(s.items ?? {}, g, full)] : [];
    case 'object': {
      if (!s.properties) return {};
      const required: string[] = s.required ?? [];
      const names = Object.keys(s.properties).filter((k) => full || required.includes(k));
      return Object.fromEntries(names.map((k) => [k, validValue(s.properties[k], g, full)]));
    }
    default: return 'x';
  }
}

export interface Hostile {
  name: string;
  value: unknown;
}

export type Part = 'path' | 'query' | 'body';

const MIB = 1024 * 1024;

/** Values that lie just outside, or far outside, what the schema accepts, plus hostile text for any location. */
export function hostileValues(s: Schema, part: Part, g: Gen): Hostile[] {
  const out: Hostile[] = [];
  const add = (name: string, value: unknown) => out.push({ name, value });
  const schemas: Schema[] = s.anyOf ?? [s];
  const types = new Set(schemas.flatMap(typesOf));

  add('null', null);
  add('empty string', '');
  add('NUL', 'a\u0000b');
  add('lone surrogate', '\ud800x');
  add('1e999', new Raw('1e999'));
  add('2^53+1', new Raw('9007199254740993'));
  add('true', true);
  if (part === 'body') {
    add('object', { x: 1 });
    add('array', ['x']);
    add('1 MiB string', 'x'.repeat(MIB - 4096));
    add('over 1 MiB', 'x'.repeat(MIB + 1));
    add('10,000-deep arrays', deeplyNested(10_000, true));
    add('10,000-deep objects', deeplyNested(10_000, false));
    add('__proto__ object', new Entries([['__proto__', { polluted: true }]]));
  } else {
    add('8,000 characters', 'x'.repeat(8000));
    add('percent sign', '%');
  }
  for (const sub of schemas) {
    for (const type of typesOf(sub)) {
      if (type === 'integer' || type === 'number') numberValues(sub, add);
      if (type === 'string') stringValues(sub, g, add);
      if (type === 'array') arrayValues(sub, g, add);
      if (type === 'object') objectValues(sub, g, add);
    }
  }
  if (Array.isArray(s.enum)) {
    add('not a value', 'not_a_value');
    const first = s.enum.find((v: unknown) => typeof v === 'string');
    if (first) add('upper case', first.toUpperCase());
  }
  if (!types.size && !s.anyOf) add('any: deep object', deeplyNested(2000, false));
  for (const [i, text] of g.sample(nastyString, 3).entries()) add(`random text ${i}`, text);
  return out;
}

function numberValues(s: Schema, add: (name: string, value: unknown) => void) {
  if (typeof s.minimum === 'number') add('min-1', s.minimum - 1);
  if (typeof s.maximum === 'number') {
    add('max', s.maximum);
    add('max+1', s.maximum + 1);
  }
  add('2^31', 2 ** 31);
  add('-2^31-1', -(2 ** 31) - 1);
  add('1e20', 1e20);
  add('1e308', new Raw('1e308'));
  add('-1e999', new Raw('-1e999'));
  add('one half', 0.5);
  add('-0', new Raw('-0'));
  add('tiny', new Raw('1e-400'));
  add('digits as a string', '12');
}

const FORGED_DATES = ['0000-01-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-01-01T00:00:00+23:59', '2026-01-01T00:00:00-23:59',
  '9999-12-31T23:59:59-00:01', '2026-12-31T23:59:60Z', '2026-01-01', '99999-01-01T00:00:00Z', '253402300800', '-1'];

function stringValues(s: Schema, g: Gen, add: (name: string, value: unknown) => void) {
  if (typeof s.maxLength === 'number') add('maxLength+1', 'a'.repeat(s.maxLength + 1));
  if (s.format === 'date-time') for (const d of FORGED_DATES) add(`date ${d}`, d);
  if (s.format === 'date') for (const d of ['0000-01-01', '2026-02-30', '99999-01-01', '2026-1-1']) add(`date ${d}`, d);
  const prefixes = prefixesOf(s.pattern);
  for (const prefix of prefixes) {
    add('fresh id', `${prefix}Fuzz${g.unique()}`);
    add('prefix only', prefix);
    add('id with NUL', `${prefix}a\u0000`);
    add('id of 65 characters', `${prefix}${'a'.repeat(65 - prefix.length)}`);
    add('upper-case prefix', `${prefix.toUpperCase()}abc`);
    const real = g.pool.real(prefix);
    if (real.length) add('real id', g.pick(real));
  }
  const foreign = g.pool.prefixes().filter((p) => !prefixes.includes(p));
  if (foreign.length) {
    const prefix = g.pick(foreign);
    add(`foreign id ${prefix}`, g.pool.real(prefix)[0]);
  }
}

function arrayValues(s: Schema, g: Gen, add: (name: string, value: unknown) => void) {
  const item = validValue(s.items ?? {}, g);
  if (typeof s.maxItems === 'number') add('maxItems+1', Array.from({ length: s.maxItems + 1 }, () => item));
  add('[null]', [null]);
  add('nested array', [[item]]);
  add('item with NUL', ['a\u0000']);
}

function objectValues(s: Schema, g: Gen, add: (name: string, value: unknown) => void) {
  if (s.properties) {
    const valid = validValue(s, g, true) as Record<string, unknown>;
    add('unknown key', { ...valid, fuzz_unknown: 1 });
    add('missing required', {});
    const [first] = Object.keys(s.properties);
    if (first) add('duplicate key, hostile last', new Entries([...Object.entries(valid), [first, new Raw('1e999')]]));
    add('__proto__ key', new Entries([...Object.entries(valid), ['__proto__', { polluted: true }]]));
  }
  if (s.additionalProperties && typeof s.additionalProperties === 'object') {
    add('51 keys', Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])));
    add('41-character key', { [`k${'x'.repeat(40)}`]: 'v' });
    add('NUL key', { 'a\u0000': 'v' });
    add('value 1e999', new Entries([['n', new Raw('1e999')]]));
    add('__proto__ map key', new Entries([['__proto__', 'x']]));
    add('nested value', { k: { deep: [1, 2] } });
  }
}

/** Hostile path segments (already percent-encoded where they must be). */
export function hostileSegments(prefix: string | undefined, g: Gen): Hostile[] {
  const out: Hostile[] = [
    { name: 'NUL', value: 'a%00' },
    { name: 'invalid UTF-8', value: '%ED%A0%80' },
    { name: '5,000 characters', value: 'x'.repeat(5000) },
    { name: 'dot dot', value: '%2e%2e' },
    { name: 'space', value: '%20' },
    { name: 'bad escape', value: '%zz' },
  ];
  if (prefix) {
    out.push({ name: 'fresh id', value: `${prefix}Fuzz${g.unique()}` }, { name: 'prefix only', value: prefix });
  }
  const foreign = g.pool.prefixes().filter((p) => p !== prefix);
  if (foreign.length) out.push({ name: 'foreign id', value: g.pick(g.pool.real(g.pick(foreign))) });
  return out;
}
