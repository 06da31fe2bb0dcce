// Background tasks by name; each is business logic run by graphile-worker outside any request.
import type { TaskList } from 'graphile-worker';
import type { Knex } from 'knex';

export function taskList(db: Knex): TaskList {
  void db;
  return {};
}
