// The generator refuses request inputs the validators could not keep from PostgreSQL: integers and numbers without a
// range their column holds, and references (*_id) that take any string. Each refusal names file, line and field.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadSpec } from '../../generator/load-spec.js';
import { fieldSchema } from '../../generator/json-schema.js';
import { unruledInputs } from '../../generator/input-rules.js';
import { FIXTURE, FIXTURE_FILE, lineOf, problemAt, problemsWith, projectCopy, removeCopies, replaceOnce } from './spec-fixture.js';

const t = suite('generator: input rules');
t.after(() => removeCopies());

const F = FIXTURE_FILE;
const BODY = '      name: { type: string, max_length: 50 }\n';
const withBodyField = (line: string) => replaceOnce(FIXTURE, BODY, `${BODY}      ${line}\n`);

t('an input integer without max (or min) is refused at its line', () => {
  for (const field of ['count: { type: integer, min: 0 }', 'count: { type: integer, max: 10 }', 'count: integer']) {
    const text = withBodyField(field);
    const problems = problemsWith(text);
    problemAt(problems, F, lineOf(text, field), 'operations.updateTestWidget.body.count', 'input integer', 'storage: int4');
    assert.is(problems.length, 1, problems.join('\n'));
  }
});

t('storage gives the column type\'s range; min and max narrow it and must fit it', () => {
  const text = withBodyField('count: { type: integer, min: 0, storage: int4 }');
  const { spec } = loadSpec(projectCopy({ fixture: text }));
  const op = spec.operations.find((o) => o.id === 'updateTestWidget')!;
  assert.equal(fieldSchema(spec, op.body!.count, 'input'), { type: 'integer', minimum: 0, maximum: 2147483647 });

  const wide = withBodyField('count: { type: integer, min: 0, max: 3000000000, storage: int4 }');
  problemAt(problemsWith(wide), F, lineOf(wide, 'count:'), 'body.count', '0..3000000000', 'int4');
  const unsafe = withBodyField('count: { type: integer, min: 0, max: 100000000000000000000 }');
  problemAt(problemsWith(unsafe), F, lineOf(unsafe, 'count:'), 'body.count', 'JSON carries exactly');
  const notInteger = withBodyField('ratio: { type: number, min: 0, max: 1, storage: int4 }');
  problemAt(problemsWith(notInteger), F, lineOf(notInteger, 'ratio:'), 'type', '"integer"');
});

t('an input number needs min and max', () => {
  const text = withBodyField('ratio: { type: number, min: 0 }');
  problemAt(problemsWith(text), F, lineOf(text, 'ratio:'), 'body.ratio', 'input number without min and max');
});

t('integers nested in objects and arrays, and in query parameters, follow the same rule', () => {
  const nested = withBodyField('parts: { type: array, items: { type: object, fields: { size: { type: integer, min: 1 } } } }');
  problemAt(problemsWith(nested), F, lineOf(nested, 'parts:'), 'body.parts[].size');
  const query = replaceOnce(FIXTURE, '    summary: List test widgets\n', '    summary: List test widgets\n    query:\n      size_min: integer\n');
  problemAt(problemsWith(query), F, lineOf(query, 'size_min'), 'operations.listTestWidgets.query.size_min');
});

t('an input reference (*_id, *_ids) that takes any string is refused; id fields and patterned strings pass', () => {
  const text = withBodyField('gadget_id: { type: string, max_length: 64 }');
  const problems = problemsWith(text);
  problemAt(problems, F, lineOf(text, 'gadget_id'), 'body.gadget_id', 'ends in _id', 'type: id, resource:');
  const list = withBodyField('gadget_ids: { type: array, items: string }');
  problemAt(problemsWith(list), F, lineOf(list, 'gadget_ids'), 'body.gadget_ids', 'ends in _ids');
  for (const ok of ['gadget_id: { type: id, resource: TestGadget }', "gadget_id: { type: string, pattern: '^tgdt_[a-z]+$' }",
    'gadget_ids: { type: array, items: { type: id, resource: TestGadget } }']) {
    loadSpec(projectCopy({ fixture: withBodyField(ok) }));
  }
});

t('outputs and path parameters are not inputs the rule checks', () => {
  const text = replaceOnce(FIXTURE, '      size: integer?', '      size: integer?\n      gadget_id: string');
  loadSpec(projectCopy({ fixture: text }));
});

t('the backstop finds unbounded numbers and unpatterned references in emitted request schemas', () => {
  const schema = {
    type: 'object',
    properties: {
      stock: { type: ['integer', 'null'], minimum: 0 },
      plan: { type: 'object', properties: { product_id: { type: 'string', maxLength: 64 } } },
      metadata: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } },
      when: { anyOf: [{ type: 'integer', minimum: 0, maximum: 10 }, { type: 'string', format: 'date-time' }] },
    },
  };
  assert.equal(unruledInputs(schema, 'body'), ['body.stock has no range', 'body.plan.product_id takes any string']);
});

t.run();
