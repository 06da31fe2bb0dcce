// A handler is typed by its operation: when the spec changes under it, `npm run typecheck` fails on the handler.
// Shown with tsc on a project copy holding only what a handler imports: runtime/, the generated types and the
// generated face of the runtime's Handler typed with them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { Project } from 'ts-morph';
import { loadSpec } from '../../generator/load-spec.js';
import { emitTypes } from '../../generator/emit-types.js';
import { emitSpecData } from '../../generator/emit-spec-data.js';
import { emitTypedRuntime } from '../../generator/emit-typed-runtime.js';
import { projectRoot } from '../../runtime/project-root.js';
import { FIXTURE, linkNodeModules, projectCopy, removeCopies, replaceOnce, writeIn } from './spec-fixture.js';

const t = suite('generator: handlers are type-checked against their operation');
t.after(() => removeCopies());

const RETRIEVE = `import type { Handler } from '../../generated/handler.js';

export const retrieveTestWidget: Handler<'retrieveTestWidget'> = async ({ path }) => ({
  id: path.id, name: 'Widget', colour: 'red', size: null, created_at: '2026-01-01T00:00:00.000Z',
});
`;

const UPDATE = `import type { Handler } from '../../generated/handler.js';

export const updateTestWidget: Handler<'updateTestWidget'> = async ({ path, body }) => ({
  id: path.id, name: body.name ?? 'Widget', colour: body.colour ?? 'green', size: 3, created_at: '2026-01-01T00:00:00.000Z',
});
`;

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, esModuleInterop: true,
    skipLibCheck: true, noEmit: true, types: ['node'],
  },
  files: ['handlers/test_widgets/retrieveTestWidget.ts', 'handlers/test_widgets/updateTestWidget.ts'],
});

/** A copy with runtime/, the two handlers, and generated types for the fixture as given. */
function typedCopy(fixture: string): string {
  const root = projectCopy({ fixture, with: ['runtime'] });
  linkNodeModules(root);
  const { spec } = loadSpec(root);
  writeIn(root, 'generated/types.ts', emitTypes(spec, new Project({ useInMemoryFileSystem: true })));
  writeIn(root, 'generated/spec-data.ts', emitSpecData(spec));
  writeIn(root, 'generated/handler.ts', emitTypedRuntime()['handler.ts']);
  writeIn(root, 'handlers/test_widgets/retrieveTestWidget.ts', RETRIEVE);
  writeIn(root, 'handlers/test_widgets/updateTestWidget.ts', UPDATE);
  writeIn(root, 'tsconfig.json', TSCONFIG);
  return root;
}

function tsc(root: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(join(projectRoot, 'node_modules/.bin/tsc'), ['-p', join(root, 'tsconfig.json'), '--pretty', 'false'], { cwd: root },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }));
  });
}

t('handlers matching their operations type-check; after spec edits they fail, each at its handler', async () => {
  const matching = typedCopy(FIXTURE);
  // The resource's `name` becomes `label` (both handlers still return `name`), and the update body loses `name`
  // (which the update handler reads): both handlers now disagree with their operations.
  let edited = replaceOnce(FIXTURE, '      name: string\n', '      label: string\n');
  edited = replaceOnce(edited, '      name: { type: string, max_length: 50 }\n', '');
  const drifted = typedCopy(edited);

  const [ok, bad] = await Promise.all([tsc(matching), tsc(drifted)]);
  assert.is(ok.code, 0, ok.output);
  assert.is.not(bad.code, 0, 'tsc accepted handlers that no longer match their operations');
  assert.match(bad.output, /handlers\/test_widgets\/retrieveTestWidget\.ts\(\d+,\d+\): error TS\d+/);
  assert.match(bad.output, /handlers\/test_widgets\/updateTestWidget\.ts\(\d+,\d+\): error TS\d+/);
  assert.match(bad.output, /'name'|"name"|name/);
  assert.match(bad.output, /label/);
});

t.run();
