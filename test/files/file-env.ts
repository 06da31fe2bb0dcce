// Files tests write their bytes into a temporary store, and the links the server signs point at the test server. The
// store is the one FILE_STORAGE chooses (PostgreSQL by default: the test's own database); FILE_STORAGE_DIR is pointed
// at a temporary directory all the same, for the local disk store and the signing secret kept beside it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileStorage } from '../../runtime/file-storage.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';

export interface FileEnv {
  dir: string;
  /** the keys of the store's complete objects, sorted */
  objects(): Promise<string[]>;
  restore(): void;
}

export function useTemporaryStore(app: TestApp): FileEnv {
  const saved = { dir: process.env.FILE_STORAGE_DIR, base: process.env.PUBLIC_BASE_URL };
  const dir = mkdtempSync(join(tmpdir(), 'files-'));
  process.env.FILE_STORAGE_DIR = dir;
  process.env.PUBLIC_BASE_URL = new URL(app.url).origin;
  return {
    dir,
    objects: () => fileStorage(app.db).list(),
    restore() {
      for (const [name, value] of [['FILE_STORAGE_DIR', saved.dir], ['PUBLIC_BASE_URL', saved.base]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A test app whose file store is a temporary directory; close() restores the environment and stops the app. */
export async function startAppWithStore(): Promise<{ app: TestApp; env: FileEnv; close(): Promise<void> }> {
  const app = await startTestApp();
  const env = useTemporaryStore(app);
  return { app, env, close: async () => { env.restore(); await app.close(); } };
}
