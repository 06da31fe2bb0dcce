// Every version's OpenAPI document (assembled from generated/openapi.json as served; `npm run check` proves it fresh) is one a standard
// tool accepts: the OpenAPI 3.1 schema and checks of @readme/openapi-parser, and Redocly's recommended lint under
// redocly.yaml with no error and no warning. Each rule redocly.yaml turns off finds, under the bare recommended set,
// only what its reason there says. Every operation declares the security its spec declares (a public one
// `security: []`), retired ones included.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { validate, compileErrors } from '@readme/openapi-parser';
import { createConfig, loadConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { loadSpec } from '../../generator/load-spec.js';
import { projectRoot } from '../../runtime/project-root.js';
import { readOpenApiDocument, storeFile } from '../../runtime/openapi-store.js';
import { specData } from '../../generated/spec-data.js';

const t = suite('generator: OpenAPI documents are valid');

type Json = any;
const CONFIG = join(projectRoot, 'redocly.yaml');
const GENERATED = join(projectRoot, 'generated');
const documents = Object.keys(JSON.parse(readFileSync(storeFile(GENERATED), 'utf8')).versions).sort()
  .map((date) => [date, readOpenApiDocument(GENERATED, date)] as const);
const { spec } = loadSpec(projectRoot);

const describe = (problems: NormalizedProblem[]) =>
  problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`).join('\n');

/** The JSON pointer's target: `#/paths/~1a~1{id}/post` -> the object there. */
function at(doc: Json, pointer: string): Json {
  return pointer.replace(/^#\/?/, '').split('/').filter(Boolean)
    .reduce((node, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

/** What each rule redocly.yaml turns off may find: the claim its comment there makes, checked. */
const WAIVED: Record<string, (doc: Json, problem: NormalizedProblem) => string | null> = {
  'info-license': (_doc, p) => (p.location[0]?.pointer === '#/info' ? null : 'not about info'),
  'no-ambiguous-paths': (doc, p) => {
    const [a, b] = [...p.message.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    const methods = (path: string) => Object.keys(doc.paths[path] ?? {});
    const shared = methods(a).filter((m) => methods(b).includes(m));
    return a && b && methods(a).length && methods(b).length && !shared.length ? null : `${a} and ${b} share ${shared.join(', ')}`;
  },
  'operation-2xx-response': (doc, p) => {
    const op = at(doc, (p.location[0]?.pointer ?? '').replace(/\/responses$/, ''));
    const retired = op?.deprecated && Object.keys(op.responses).includes('410') && /^Gone as of /.test(op.description);
    return retired ? null : `${op?.operationId} is not a retired operation`;
  },
};

t('there is a document for every version', () => {
  assert.equal(documents.map(([date]) => date).sort(), [...specData.versions].sort());
});

t('@readme/openapi-parser finds every document valid, without warnings', async () => {
  for (const [date, text] of documents) {
    const result = await validate(JSON.parse(text));
    assert.ok(result.valid, `${date}: ${compileErrors(result)}`);
    assert.equal(result.warnings, [], `${date}: warnings`);
  }
});

t('Redocly\'s recommended lint under redocly.yaml finds no error and no warning in any document', async () => {
  const config = await loadConfig({ configPath: CONFIG });
  for (const [date, text] of documents) {
    const problems = await lintFromString({ source: text, absoluteRef: join(GENERATED, 'openapi', `${date}.json`) /* the version's name in messages */, config });
    assert.equal(describe(problems), '', `${date}`);
  }
});

t('each rule redocly.yaml turns off finds only what its reason says', async () => {
  const settings = parseYaml(readFileSync(CONFIG, 'utf8'));
  assert.equal(settings.extends, ['recommended']);
  const off = Object.entries(settings.rules ?? {}).filter(([, level]) => level === 'off').map(([rule]) => rule);
  assert.equal(off.sort(), Object.keys(WAIVED).sort(), 'every waiver has its check here');
  assert.equal(Object.keys(settings.rules).sort(), off.sort(), 'redocly.yaml only turns rules off');
  const recommended = await createConfig({ extends: ['recommended'] });
  for (const [date, text] of documents) {
    const doc = JSON.parse(text);
    const problems = await lintFromString({ source: text, config: recommended });
    const outside = problems.filter((p) => !(p.ruleId in WAIVED));
    assert.equal(describe(outside), '', `${date}: only waived rules find anything`);
    for (const p of problems) {
      const wrong = WAIVED[p.ruleId](doc, p);
      assert.is(wrong, null, `${date}: ${p.ruleId} at ${p.location[0]?.pointer}: ${wrong}`);
    }
  }
});

t('every operation declares the security its spec declares, retired ones included; a public one []', () => {
  const auth = new Map(spec.operations.map((op) => [op.id, op.auth]));
  for (const [date, text] of documents) {
    const doc = JSON.parse(text);
    const schemes = Object.keys(doc.components.securitySchemes);
    for (const [path, methods] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(methods)) {
        const where = `${date} ${method.toUpperCase()} ${path}`;
        assert.ok(Array.isArray(op.security), `${where} declares security`);
        assert.equal(op.security, auth.get(op.operationId)!.map((kind) => ({ [kind]: [] })), where);
        for (const requirement of op.security) {
          for (const name of Object.keys(requirement)) assert.ok(schemes.includes(name), `${where}: ${name} is a security scheme`);
        }
      }
    }
  }
});

t.run();
