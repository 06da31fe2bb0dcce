// Released versions are frozen: spec/released/<date>.json holds each released version's OpenAPI document as it
// was released. A spec edit may add to a released version (new operations, new optional inputs, new response
// fields: "every version gains new endpoints and optional fields") but may not break it; breaking edits need a
// new dated version whose change instructions keep the old shape for old pins.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = any;

function deref(doc: Json, schema: Json): Json {
  let s = schema;
  for (let i = 0; s && s.$ref && i < 20; i++) s = doc.components.schemas[s.$ref.split('/').pop()];
  return s;
}

const LEAF_KEYS = ['type', 'format', 'pattern', 'minimum', 'maximum', 'minLength', 'maxLength', 'maxItems', 'const'];

/** Differences that break a client of `before`: requests it sent are refused, or responses it read changed. */
function compareSchema(beforeDoc: Json, afterDoc: Json, before: Json, after: Json, at: string, side: 'request' | 'response', out: string[], seen = new Set<string>()) {
  const key = `${at}|${JSON.stringify(before).slice(0, 200)}`;
  if (seen.has(key)) return;
  seen.add(key);
  const b = deref(beforeDoc, before);
  const a = deref(afterDoc, after);
  if (!b || !a) return;
  for (const k of LEAF_KEYS) {
    if (JSON.stringify(b[k]) !== JSON.stringify(a[k])) out.push(`${at}: ${k} changed from ${JSON.stringify(b[k])} to ${JSON.stringify(a[k])}`);
  }
  if (b.enum || a.enum) {
    const bs = new Set(b.enum ?? []);
    const as = new Set(a.enum ?? []);
    const removed = [...bs].filter((v) => !as.has(v));
    const added = [...as].filter((v) => !bs.has(v));
    if (removed.length) out.push(`${at}: values ${removed.map((v) => JSON.stringify(v)).join(', ')} removed`);
    if (side === 'response' && added.length) out.push(`${at}: new values ${added.map((v) => JSON.stringify(v)).join(', ')} in responses`);
  }
  if (b.anyOf || a.anyOf) {
    if (JSON.stringify(b.anyOf?.length) !== JSON.stringify(a.anyOf?.length)) out.push(`${at}: its alternatives changed`);
    else (b.anyOf ?? []).forEach((s: Json, i: number) => compareSchema(beforeDoc, afterDoc, s, a.anyOf[i], at, side, out, seen));
  }
  if (b.items && a.items) compareSchema(beforeDoc, afterDoc, b.items, a.items, `${at}[]`, side, out, seen);
  const bp = b.properties ?? {};
  const ap = a.properties ?? {};
  for (const name of Object.keys(bp)) {
    const where = `${at}.${name}`;
    if (!(name in ap)) {
      out.push(side === 'request' ? `${where}: no longer accepted` : `${where}: no longer returned`);
      continue;
    }
    compareSchema(beforeDoc, afterDoc, bp[name], ap[name], where, side, out, seen);
  }
  if (side === 'request') {
    const newlyRequired = (a.required ?? []).filter((r: string) => !(b.required ?? []).includes(r));
    for (const r of newlyRequired) out.push(`${at}.${r}: now required`);
  }
}

export function breakingChanges(before: Json, after: Json): string[] {
  const out: string[] = [];
  for (const [path, methods] of Object.entries<Json>(before.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(methods)) {
      const now = after.paths?.[path]?.[method];
      const name = `operation ${op.operationId} (${method.toUpperCase()} ${path})`;
      if (!now) {
        out.push(`${name}: removed`);
        continue;
      }
      if (!!op.responses['410'] !== !!now.responses['410'] && now.responses['410'] && !op.responses['410']) out.push(`${name}: now gone (410)`);
      // Released as only a 410 (gone without its shape): whatever it answers now is an addition (generator/gone.ts).
      if (Object.keys(op.responses).join() === '410') continue;
      const params = new Map<string, Json>((now.parameters ?? []).map((p: Json) => [`${p.in}:${p.name}`, p]));
      for (const p of op.parameters ?? []) {
        const current = params.get(`${p.in}:${p.name}`);
        if (!current) out.push(`${name}: ${p.in} parameter ${p.name} no longer accepted`);
        else compareSchema(before, after, p.schema, current.schema, `${name}: ${p.in} parameter ${p.name}`, 'request', out);
      }
      for (const p of now.parameters ?? []) {
        const known = (op.parameters ?? []).some((q: Json) => q.in === p.in && q.name === p.name);
        if (!known && p.required) out.push(`${name}: new required ${p.in} parameter ${p.name}`);
      }
      const bBody = op.requestBody?.content?.['application/json']?.schema;
      const aBody = now.requestBody?.content?.['application/json']?.schema;
      if (bBody && aBody) compareSchema(before, after, bBody, aBody, `${name}: body`, 'request', out);
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        const bSchema = response.content?.['application/json']?.schema;
        const aSchema = now.responses[status]?.content?.['application/json']?.schema;
        if (status.startsWith('2') && bSchema && !aSchema) out.push(`${name}: response ${status} changed`);
        if (status.startsWith('2') && bSchema && aSchema) compareSchema(before, after, bSchema, aSchema, `${name}: response`, 'response', out);
      }
    }
  }
  return [...new Set(out)];
}

export const releasedPath = (root: string, date: string) => join(root, 'spec', 'released', `${date}.json`);

/** Breaking differences between every released snapshot and the document generated now. */
export function checkReleased(root: string, documents: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [date, text] of Object.entries(documents)) {
    const path = releasedPath(root, date);
    if (!existsSync(path)) continue;
    for (const p of breakingChanges(JSON.parse(readFileSync(path, 'utf8')), JSON.parse(text))) {
      problems.push(`released version ${date}: ${p}. Released versions are frozen: add a new dated version to spec/versions/ whose change instructions keep this shape for ${date}`);
    }
  }
  return problems;
}

export function release(root: string, documents: Record<string, string>, which: string): string[] {
  mkdirSync(join(root, 'spec', 'released'), { recursive: true });
  const dates = which === 'all' ? Object.keys(documents) : [which];
  for (const date of dates) {
    if (!documents[date]) throw new Error(`${date} is not a version in spec/versions/`);
    writeFileSync(releasedPath(root, date), documents[date]);
  }
  return dates;
}
