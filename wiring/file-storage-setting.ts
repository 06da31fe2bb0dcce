// Where files and exports live, by FILE_STORAGE (docs/settings.md): `postgres` (the default: the database every host
// already shares), `s3` (S3-compatible object storage, S3_* settings) or `disk` (FILE_STORAGE_DIR on this host only,
// for development). Read once at composition: an unknown value, or an S3 store missing its bucket, stops the process
// at start, before it serves anything.
import { localDiskStorage, useFileStorage, type FileStorageChoice } from '../runtime/file-storage.js';
import { postgresStorageFor } from '../runtime/file-storage-postgres.js';
import { S3Storage, s3SettingsFrom } from '../runtime/file-storage-s3.js';

const stores: Record<string, (env: NodeJS.ProcessEnv) => FileStorageChoice> = {
  postgres: () => postgresStorageFor,
  s3: (env) => {
    const s3 = new S3Storage(s3SettingsFrom(env));
    return () => s3;
  },
  // FILE_STORAGE_DIR is read at each use, as before: tests point it at a directory of their own while running.
  disk: () => () => localDiskStorage(),
};

export function chooseFileStorage(env: NodeJS.ProcessEnv): FileStorageChoice {
  const choice = env.FILE_STORAGE || 'postgres';
  const make = Object.hasOwn(stores, choice) ? stores[choice] : undefined;
  if (!make) throw new Error(`FILE_STORAGE=${choice} names no file store; known: ${Object.keys(stores).join(', ')}`);
  return make(env);
}

export function provideFileStorage(env: NodeJS.ProcessEnv): void {
  useFileStorage(chooseFileStorage(env));
}
