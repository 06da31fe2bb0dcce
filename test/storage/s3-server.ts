// An S3-compatible server for the store tests: s3rver (a dev dependency, pure JavaScript), on a free port over a
// temporary directory. Where it cannot start, the S3 tests skip and say why.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Settings } from '../../runtime/file-storage-s3.js';
import { freePort } from '../helpers/processes.js';

export interface TestS3 {
  settings: S3Settings;
  close(): Promise<void>;
}

const BUCKET = 'test-files';

/** A running server and the settings of a store on it; or why none could start. */
export async function startTestS3(): Promise<TestS3 | { unavailable: string }> {
  const dir = mkdtempSync(join(tmpdir(), 's3rver-'));
  try {
    const { default: S3rver } = await import('s3rver');
    const port = await freePort();
    const server = new S3rver({ port, address: '127.0.0.1', directory: dir, silent: true, configureBuckets: [{ name: BUCKET, configs: [] }] });
    await server.run();
    return {
      settings: {
        bucket: BUCKET, endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', forcePathStyle: true, prefix: '',
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      },
      async close() {
        await server.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    return { unavailable: `no S3-compatible server could start (s3rver: ${(e as Error).message})` };
  }
}
