// The changelog the docs site serves: each version's entries, and for every pair of versions the same diff as
// `npm run diff` computes, rebuilt from the stored steps (generated/changelog.json).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadSpec } from '../../generator/load-spec.js';
import { diffVersions } from '../../generator/diff.js';
import { changelog, crossing } from '../../runtime/docs/changelog.js';
import { projectRoot } from '../../runtime/project-root.js';

const t = suite('generator: changelog data for /docs/changelog');
const { spec } = loadSpec(projectRoot);
const data = changelog();

t('every version is listed with its entries; entries with a breaking change are marked', () => {
  assert.equal(data.versions.map((v) => v.date), spec.versions.map((v) => v.date));
  const entries = data.versions.flatMap((v) => v.entries);
  assert.is(entries.length, spec.versions.flatMap((v) => v.changes).length);
  assert.ok(entries.some((e) => e.breaking) && entries.some((e) => !e.breaking));
  assert.ok(entries.some((e) => e.migration));
});

t('for every pair of versions, the steps rebuild exactly the diff tool\'s answer, either way round', () => {
  const dates = spec.versions.map((v) => v.date);
  let pairs = 0;
  for (const from of dates) {
    for (const to of dates) {
      assert.equal(crossing(data, from, to), diffVersions(spec, from, to), `${from} -> ${to}`);
      pairs++;
    }
  }
  assert.is(pairs, dates.length ** 2);
  // Dates between versions mean the version in force then.
  assert.equal(crossing(data, '2026-07-21', '2026-09-10'), diffVersions(spec, '2026-07-21', '2026-09-10'));
});

t.run();
