// paginateArray (runtime/pagination.ts): a short list in memory is paged by the same window as a table's list
// (pageWindow), each item's position its sort key. Its pages are the positions between the cursors, `first` from the
// start of them or `last` from their end, and its page_info says whether any item of the whole list precedes or
// follows the page: the contract the in-memory lists (notification topics and preferences, payout rails) have kept.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { encodeCursor, paginateArray, type PageArgs, type PageInfo } from '../../runtime/pagination.js';

const t = suite('runtime: paging a list in memory');

/** The contract in positions: [from, to) lies between the cursors; the page is its first or last `size`. */
function expected(ids: string[], args: PageArgs, defaultSize: number): { data: string[]; page_info: PageInfo } {
  const position = (cursor: string) => (JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [number, string])[0];
  const size = args.last ?? args.first ?? defaultSize;
  const from = args.after ? position(args.after) + 1 : 0;
  const to = args.before ? Math.min(ids.length, position(args.before)) : ids.length;
  const start = args.last !== undefined ? Math.max(from, to - size) : from;
  const data = ids.slice(start, Math.max(start, Math.min(to, start + size)));
  const cursor = (i: number) => encodeCursor(i, ids[i]);
  return {
    data,
    page_info: {
      start_cursor: data.length ? cursor(start) : null,
      end_cursor: data.length ? cursor(start + data.length - 1) : null,
      has_next_page: start + data.length < ids.length,
      has_previous_page: start > 0,
    },
  };
}

const list = fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { maxLength: 15 });

t('every window of cursors, first and last pages as the contract says', () => {
  fc.assert(fc.property(list, fc.nat(16), fc.nat(16), fc.integer({ min: 1, max: 20 }), fc.constantFrom('first', 'last', 'neither'),
    fc.boolean(), fc.boolean(), (ids, a, b, size, mode, withAfter, withBefore) => {
      const args: PageArgs = {};
      if (mode === 'first') args.first = size;
      if (mode === 'last') args.last = size;
      if (withAfter && a < ids.length) args.after = encodeCursor(a, ids[a]);
      if (withBefore && b < ids.length) args.before = encodeCursor(b, ids[b]);
      const page = paginateArray(ids.map((id) => ({ id })), args, 4);
      assert.equal({ data: page.data.map((x) => x.id), page_info: page.page_info }, expected(ids, args, 4));
    }), { numRuns: 3000 });
});

t('paging forward then back walks the whole list', () => {
  const items = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));
  const one = paginateArray(items, { first: 2 }, 10);
  const two = paginateArray(items, { first: 2, after: one.page_info.end_cursor! }, 10);
  const three = paginateArray(items, { first: 2, after: two.page_info.end_cursor! }, 10);
  assert.equal([one, two, three].map((p) => p.data.map((x) => x.id)), [['a', 'b'], ['c', 'd'], ['e']]);
  assert.equal([three.page_info.has_next_page, three.page_info.has_previous_page], [false, true]);
  const back = paginateArray(items, { last: 2, before: three.page_info.start_cursor! }, 10);
  assert.equal(back.data.map((x) => x.id), ['c', 'd']);
  assert.equal(back.page_info.start_cursor, two.page_info.start_cursor);
});

t('a cursor of another kind, or first with last, is a 400 naming it', () => {
  const items = [{ id: 'a' }];
  assert.throws(() => paginateArray(items, { first: 1, last: 1 }, 10), (e: { param?: string }) => e.param === 'last');
  assert.throws(() => paginateArray(items, { after: encodeCursor('2026-01-01T00:00:00.000Z', 'a') }, 10), (e: { param?: string }) => e.param === 'after');
});

t.run();
