// Building audiences in tests: the queued build_audience job run as the worker runs it (and removed from the queue),
// so a test sees the audience the network built.
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { jobsOf } from '../payments/payment-fixtures.js';
import { buildAudience, BUILD_AUDIENCE } from '../../handlers/audiences/build.js';

export async function buildQueued(app: TestApp, id: string): Promise<void> {
  const jobs = await jobsOf(app, BUILD_AUDIENCE, id);
  assert.is(jobs.length, 1, 'one build job queued');
  await buildAudience(app.db, id);
  await app.db('graphile_worker._private_jobs').whereIn('id', jobs.map((j) => j.id)).delete();
}
