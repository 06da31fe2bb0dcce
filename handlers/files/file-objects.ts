// Storage objects a committed write no longer needs (a multipart upload's parts once assembled, a replaced part,
// an expired export's CSV) are removed by the delete_file_objects job, queued in that write's transaction: they go
// only when the write committed, and a rolled-back write keeps them.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { addJob } from '../../runtime/jobs.js';
import { fileStorage } from '../../runtime/file-storage.js';

export const DELETE_FILE_OBJECTS = 'delete_file_objects';

export async function deleteObjectsAfterCommit(db: Knex, keys: string[]): Promise<void> {
  if (keys.length) await addJob(db, DELETE_FILE_OBJECTS, { keys });
}

/** Removing an absent object is fine, so a re-run is harmless. */
export async function deleteFileObjects(db: Knex, keys: string[]): Promise<void> {
  const storage = fileStorage(db);
  for (const key of keys) await storage.remove(key);
}

export const fileTasks = (db: Knex): Record<string, Task> => ({
  [DELETE_FILE_OBJECTS]: async (payload) => deleteFileObjects(db, (payload as { keys: string[] }).keys),
});
