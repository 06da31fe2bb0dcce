// Two JSON answers to the same read, at two versions, compared field by field: what the target adds, removes,
// renames, retypes or says in other words. Paths name fields as a reader would look for them (data[].total); each
// difference is kept once per path, with the first example found. Pure: the shadow replay (./shadow-replay.ts)
// attributes them to changelog entries.

export type DifferenceKind = 'added' | 'removed' | 'renamed' | 'retyped' | 'values_changed';

export interface AnswerDifference {
  kind: DifferenceKind;
  /** where, in the target's names */
  path: string;
  before: unknown;
  after: unknown;
  /** for a rename: the field's name at the key's version */
  oldName?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const shape = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** `renamed` maps a target's field name to its older names (from the changelog): a field gone under an older name
 * and present under the newer is a rename even when its value changed too. Equal values under two names are one. */
export function compareAnswers(before: unknown, after: unknown, renamed: ReadonlyMap<string, readonly string[]>): AnswerDifference[] {
  const found = new Map<string, AnswerDifference>();
  const note = (d: AnswerDifference) => {
    const key = `${d.kind} ${d.path}`;
    if (!found.has(key)) found.set(key, d);
  };
  const walk = (b: unknown, a: unknown, path: string) => {
    if (isObject(b) && isObject(a)) {
      const removed = Object.keys(b).filter((k) => !(k in a));
      const added = Object.keys(a).filter((k) => !(k in b));
      for (const newName of added) {
        const oldName = removed.find((k) => renamed.get(newName)?.includes(k))
          ?? removed.find((k) => a[newName] !== null && JSON.stringify(b[k]) === JSON.stringify(a[newName]));
        if (oldName === undefined) {
          note({ kind: 'added', path: join(path, newName), before: null, after: a[newName] });
          continue;
        }
        removed.splice(removed.indexOf(oldName), 1);
        note({ kind: 'renamed', path: join(path, newName), before: { [oldName]: b[oldName] }, after: { [newName]: a[newName] }, oldName });
        walk(b[oldName], a[newName], join(path, newName));
      }
      for (const k of removed) note({ kind: 'removed', path: join(path, k), before: b[k], after: null });
      for (const k of Object.keys(a)) if (k in b) walk(b[k], a[k], join(path, k));
      return;
    }
    if (Array.isArray(b) && Array.isArray(a)) {
      for (let i = 0; i < Math.min(a.length, b.length); i++) walk(b[i], a[i], `${path}[]`);
      return;
    }
    // null on either side says nothing of the field's type (a nullable field)
    if (b === null || a === null) return;
    if (shape(b) !== shape(a)) note({ kind: 'retyped', path, before: b, after: a });
    else if (typeof b === 'string' && b !== a) note({ kind: 'values_changed', path, before: b, after: a });
  };
  walk(before, after, '');
  return [...found.values()];
}
