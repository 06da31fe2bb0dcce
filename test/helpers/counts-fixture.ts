// A test file for test/runtime/test-counts.test.ts only (named without .test.ts, so `npm test` never runs it alone):
// one test of each outcome the closing line counts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { skip } from './skip.js';

const t = suite('one test of each outcome');
t('passes', () => { assert.ok(true); });
t('skips itself', () => skip('nothing here to run against'));
t.skip('is declared skipped', () => { assert.unreachable(); });
t('fails', () => { assert.unreachable('on purpose'); });
t.run();
