// Media over HTTP: the price held from the balance when requested, charged when the simulated generator stores its
// file, given back when it refuses ("[fail]"); the file's bytes are a real, deterministic PNG, or for a video an MP4
// (H.264), downloaded at url and decoded here; every refusal, another account's asset a 404, the job's re-runs
// harmless.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { inflateSync } from 'node:zlib';
import type { TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { balanceRowsOf, fundBalance, postingsOf } from '../helpers/ledger.js';
import { startAppWithStore, type FileEnv } from '../files/file-env.js';
import { generateMediaAsset } from '../../handlers/media/generate.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { readMp4, type Picture } from './mp4-reader.js';

const t = suite('media');
let app: TestApp;
let env: FileEnv;
let close: () => Promise<void>;
t.before(async () => { ({ app, env, close } = await startAppWithStore()); });
t.after(async () => { await close(); });

type Owner = Awaited<ReturnType<typeof makeOwner>>;
const funded = async (amount = 1000) => {
  const o = await makeOwner(app.db);
  await fundBalance(app.db, o.accountId, amount);
  return o;
};
const generate = (o: Owner, body: Record<string, unknown>) =>
  app.request('POST', '/media/generate', { token: o.key, body: { account_id: o.accountId, ...body } });
const get = (o: Owner, id: string) => app.request('GET', `/media/${id}`, { token: o.key });
const buckets = async (o: Owner) => Object.fromEntries((await balanceRowsOf(app.db, o.accountId)).map((r: any) => [r.bucket, Number(r.amount)]));
const entries = async (o: Owner) => (await postingsOf(app.db, o.accountId).orderBy('id'))
  .filter((p: any) => !p.entry_id.startsWith('le_fund_')).map((p: any) => [p.entry_id.split(':')[1], p.bucket, Number(p.amount)]);
const download = async (url: string, contentType = 'image/png') => {
  const res = await fetch(url);
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), contentType);
  return Buffer.from(await res.arrayBuffer());
};
/** The PNG's chunk types in order, each chunk's CRC checked by zlib's reader through its IDAT. */
const chunks = (png: Buffer) => {
  assert.equal([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const out: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    out.push({ type: png.toString('ascii', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return out;
};

t('image: the price is held, then charged; a real PNG at a public url, the same bytes for the same prompt', async () => {
  const o = await funded(1000);
  const res = await generate(o, { type: 'image', prompt: 'a red fox in snow' });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const m = res.body;
  assert.match(m.id, /^media_/);
  assert.equal([m.status, m.type, m.resolution, m.duration_seconds, m.file_id, m.url, m.content_type], ['pending', 'image', 'standard', null, null, null, null]);
  assert.equal(m.price, { amount: 4, currency: 'usd', decimals: 2, display_decimals: 2 });
  assert.equal(await buckets(o), { available: 996, held: 4, processor_clearing: -1000 });
  assert.equal(await entries(o), [['reserved', 'available', -4], ['reserved', 'held', 4]]);

  await generateMediaAsset(app.db, m.id);
  const done = (await get(o, m.id)).body;
  assert.equal([done.status, done.content_type, !!done.completed_at, done.failure_reason], ['completed', 'image/png', true, null]);
  assert.match(done.file_id, /^file_/);
  assert.equal(await buckets(o), { available: 996, held: 0, fees: 4, processor_clearing: -1000 });
  assert.equal((await entries(o)).slice(2), [['charged', 'held', -4], ['charged', 'fees', 4]]);
  const png = await download(done.url);
  const parts = chunks(png);
  assert.equal(parts.map((c) => c.type), ['IHDR', 'IDAT', 'IEND']);
  assert.equal([parts[0]!.data.readUInt32BE(0), parts[0]!.data.readUInt32BE(4)], [128, 128]);
  assert.is(inflateSync(parts[1]!.data).length, (128 * 3 + 1) * 128);
  const file = await app.request('GET', `/files/${done.file_id}`, { token: o.key });
  assert.equal([file.body.status, file.body.visibility, file.body.size], ['ready', 'public', png.length]);

  // Deterministic: the same prompt and resolution draw the same bytes; another prompt does not.
  const again = (await generate(o, { type: 'image', prompt: 'a red fox in snow' })).body;
  const other = (await generate(o, { type: 'image', prompt: 'a blue whale' })).body;
  await generateMediaAsset(app.db, again.id);
  await generateMediaAsset(app.db, other.id);
  assert.ok((await download((await get(o, again.id)).body.url)).equals(png));
  assert.not.ok((await download((await get(o, other.id)).body.url)).equals(png));
  // A re-run changes nothing and posts nothing.
  const before = (await postingsOf(app.db, o.accountId)).length;
  await generateMediaAsset(app.db, m.id);
  assert.is((await postingsOf(app.db, o.accountId)).length, before);
  assert.is((await app.db('files').where({ owner_account_id: o.accountId })).length, 3);
  const events = await app.db('events').where({ account_id: o.accountId, type: 'media.completed' });
  assert.is(events.length, 3);
});

/** A PNG's pixels, RGB rows (the generator's PNGs use filter 0 on every scanline). */
const pixels = (png: Buffer) => {
  const parts = chunks(png);
  const width = parts[0]!.data.readUInt32BE(0);
  const raw = inflateSync(Buffer.concat(parts.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  const rgb = Buffer.alloc(width * width * 3);
  for (let y = 0; y < width; y++) {
    assert.is(raw[y * (width * 3 + 1)], 0);
    raw.copy(rgb, y * width * 3, y * (width * 3 + 1) + 1, (y + 1) * (width * 3 + 1));
  }
  return { width, rgb };
};

/** The decoded picture is the image drawn from the same prompt: BT.601 limited-range luma within 1 of each pixel's,
 * chroma within 2 of each 2x2 block's mean (computed here in floating point, not by the encoder's integer formula). */
function assertSamePicture(picture: Picture, image: { width: number; rgb: Buffer }) {
  const w = image.width;
  assert.equal([picture.width, picture.height], [w, w]);
  const at = (x: number, y: number) => image.rgb.subarray((y * w + x) * 3, (y * w + x) * 3 + 3);
  let worst = [0, 0];
  for (let y = 0; y < w; y++) {
    for (let x = 0; x < w; x++) {
      const [r, g, b] = at(x, y);
      const luma = 16 + (65.481 * r! + 128.553 * g! + 24.966 * b!) / 255;
      worst[0] = Math.max(worst[0]!, Math.abs(picture.y[y * w + x]! - luma));
    }
  }
  for (let y = 0; y < w / 2; y++) {
    for (let x = 0; x < w / 2; x++) {
      const block = [at(2 * x, 2 * y), at(2 * x + 1, 2 * y), at(2 * x, 2 * y + 1), at(2 * x + 1, 2 * y + 1)];
      const mean = (f: (p: Buffer) => number) => block.reduce((s, p) => s + f(p), 0) / 4;
      const cb = 128 + mean((p) => (-37.797 * p[0]! - 74.203 * p[1]! + 112 * p[2]!) / 255);
      const cr = 128 + mean((p) => (112 * p[0]! - 93.786 * p[1]! - 18.214 * p[2]!) / 255);
      worst[1] = Math.max(worst[1]!, Math.abs(picture.cb[y * (w / 2) + x]! - cb), Math.abs(picture.cr[y * (w / 2) + x]! - cr));
    }
  }
  assert.ok(worst[0]! <= 1 && worst[1]! <= 2, `luma off by ${worst[0]}, chroma by ${worst[1]}`);
}

t('video: priced per second at its resolution; an MP4 of H.264 frames drawn from the prompt, 8 a second', async () => {
  const o = await funded(1000);
  const res = await generate(o, { type: 'video', prompt: 'waves', resolution: 'low', duration_seconds: 2 });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.is(res.body.price.amount, 20);
  await generateMediaAsset(app.db, res.body.id);
  const done = (await get(o, res.body.id)).body;
  assert.equal([done.status, done.content_type], ['completed', 'video/mp4']);
  assert.match(done.url, new RegExp(`/${done.id}\\.mp4$`));
  const bytes = await download(done.url, 'video/mp4');
  const file = (await app.request('GET', `/files/${done.file_id}`, { token: o.key })).body;
  assert.equal([file.content_type, file.filename, file.size], ['video/mp4', `${done.id}.mp4`, bytes.length]);

  // The container: ftyp, moov before mdat, one video track of 64x64, 16 samples of 125 ms: 2 seconds.
  const video = readMp4(bytes);
  assert.equal(video.topLevel, ['ftyp', 'moov', 'mdat']);
  assert.equal([video.entry, video.track.handler, video.track.width, video.track.height], ['avc1', 'vide', 64, 64]);
  assert.equal([video.sps.profile, video.sps.widthMbs, video.sps.heightMbs], [66, 4, 4]);
  assert.is(video.frames.length, 16);
  assert.equal(video.deltas, Array(16).fill(video.media.timescale / 8));
  assert.is(video.media.duration / video.media.timescale, 2);
  assert.is(video.movie.duration / video.movie.timescale, 2);
  assert.is(video.track.duration, video.movie.duration);
  // Consecutive IDR pictures carry different idr_pic_id, as the standard requires.
  video.frames.slice(1).forEach((f, i) => assert.is.not(f.idrPicId, video.frames[i]!.idrPicId));

  // The frames: the first is the picture an image of the same prompt and resolution is, and the stripes scroll
  // two pixels a frame.
  const image = (await generate(o, { type: 'image', prompt: 'waves', resolution: 'low' })).body;
  await generateMediaAsset(app.db, image.id);
  assertSamePicture(video.frames[0]!, pixels(await download((await get(o, image.id)).body.url)));
  const [first, second] = [video.frames[0]!, video.frames[1]!];
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 62; x++) assert.is(second.y[y * 64 + x], first.y[y * 64 + x + 2]);
  }
  assert.not.equal(second.y, first.y);

  // The same prompt gives the same bytes; another prompt other frames.
  const again = (await generate(o, { type: 'video', prompt: 'waves', resolution: 'low', duration_seconds: 2 })).body;
  const other = (await generate(o, { type: 'video', prompt: 'a forest', resolution: 'low', duration_seconds: 2 })).body;
  await generateMediaAsset(app.db, again.id);
  await generateMediaAsset(app.db, other.id);
  assert.ok((await download((await get(o, again.id)).body.url, 'video/mp4')).equals(bytes));
  const otherVideo = readMp4(await download((await get(o, other.id)).body.url, 'video/mp4'));
  assert.is(otherVideo.frames.length, 16);
  assert.not.equal(otherVideo.frames[0]!.y, first.y);
  assert.not.equal(otherVideo.frames[0]!.cb, first.cb);

  assert.equal(await buckets(o), { available: 938, held: 0, fees: 62, processor_clearing: -1000 });
  const high = await generate(o, { type: 'video', prompt: 'waves', resolution: 'high', duration_seconds: 10 });
  assert.is(high.body.price.amount, 400);
  const image8 = await generate(o, { type: 'image', prompt: 'x', resolution: 'high' });
  assert.is(image8.body.price.amount, 8);
  assert.is((await generate(o, { type: 'image', prompt: 'x', resolution: 'low' })).body.price.amount, 2);
});

t('video: ten seconds at high resolution, 256x256, 80 frames', async () => {
  const o = await funded(1000);
  const m = (await generate(o, { type: 'video', prompt: 'a long take', resolution: 'high', duration_seconds: 10 })).body;
  await generateMediaAsset(app.db, m.id);
  const video = readMp4(await download((await get(o, m.id)).body.url, 'video/mp4'));
  assert.equal([video.track.width, video.sps.widthMbs, video.frames.length], [256, 16, 80]);
  assert.is(video.media.duration / video.media.timescale, 10);
});

t('a refused generation gives the held price back and stores nothing', async () => {
  const o = await funded(100);
  const m = (await generate(o, { type: 'video', prompt: 'please [FAIL] now', duration_seconds: 1 })).body;
  assert.equal(await buckets(o), { available: 80, held: 20, processor_clearing: -100 });
  const objects = (await env.objects()).length;
  await generateMediaAsset(app.db, m.id);
  const failed = (await get(o, m.id)).body;
  assert.equal([failed.status, failed.failure_reason, failed.file_id, failed.url, !!failed.failed_at], ['failed', 'generator_refused', null, null, true]);
  assert.equal(await buckets(o), { available: 100, held: 0, processor_clearing: -100 });
  assert.equal(await entries(o), [['reserved', 'available', -20], ['reserved', 'held', 20], ['released', 'held', -20], ['released', 'available', 20]]);
  assert.is((await env.objects()).length, objects);
  await generateMediaAsset(app.db, m.id);
  assert.is((await entries(o)).length, 4);
  assert.is((await app.db('events').where({ account_id: o.accountId, type: 'media.failed' })).length, 1);
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t('refusals: short balance, duration rules, bad input, other accounts; nothing is made', async () => {
  const o = await funded(10);
  const other = await funded(1000);
  const count = async () => (await app.db('media_assets').where({ account_id: o.accountId })).length;
  const short = await generate(o, { type: 'video', prompt: 'x', duration_seconds: 1 });
  assert.is(short.status, 400, JSON.stringify(short.body));
  assert.is(short.body.error.type, 'insufficient_funds');
  assert.is(short.body.error.param, 'price');
  const cases: [Record<string, unknown>, string][] = [
    [{ type: 'video', prompt: 'x' }, 'duration_seconds'],
    [{ type: 'image', prompt: 'x', duration_seconds: 2 }, 'duration_seconds'],
    [{ type: 'video', prompt: 'x', duration_seconds: 11 }, 'duration_seconds'],
    [{ type: 'video', prompt: 'x', duration_seconds: 0 }, 'duration_seconds'],
    [{ type: 'audio', prompt: 'x' }, 'type'],
    [{ type: 'image', prompt: '' }, 'prompt'],
    [{ type: 'image', prompt: 'x', resolution: '4k' }, 'resolution'],
  ];
  for (const [body, param] of cases) {
    const res = await generate(o, body);
    assert.is(res.status, 400, JSON.stringify(res.body));
    assert.is(res.body.error.param, param, JSON.stringify(res.body));
  }
  assert.is(await count(), 0);
  assert.equal(await buckets(o), { available: 10, processor_clearing: -10 });
  // Another account: generating on it, reading or listing its assets is a 404.
  const theirs = (await generate(other, { type: 'image', prompt: 'mine' })).body;
  assert.is((await get(o, theirs.id)).status, 404);
  assert.is((await app.request('POST', '/media/generate', { token: o.key, body: { account_id: other.accountId, type: 'image', prompt: 'x' } })).status, 404);
  assert.is((await app.request('GET', '/media', { token: o.key, query: { account_id: other.accountId } })).status, 404);
  assert.is((await get(o, 'media_nope')).status, 404);
});

t('list: newest first, filtered by type and status', async () => {
  const o = await funded(1000);
  const a = (await generate(o, { type: 'image', prompt: 'one' })).body;
  const b = (await generate(o, { type: 'video', prompt: 'two', duration_seconds: 1 })).body;
  await generateMediaAsset(app.db, a.id);
  const list = (q: Record<string, string> = {}) => app.request('GET', '/media', { token: o.key, query: { account_id: o.accountId, ...q } });
  assert.equal((await list()).body.data.map((m: any) => m.id), [b.id, a.id]);
  assert.equal((await list({ type: 'video' })).body.data.map((m: any) => m.id), [b.id]);
  assert.equal((await list({ status: 'completed' })).body.data.map((m: any) => m.id), [a.id]);
  assert.equal((await list({ status: 'failed' })).body.data, []);
});

t.run();
