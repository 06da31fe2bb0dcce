// Background tasks by name; each is business logic run by graphile-worker outside any request.
import type { TaskList } from 'graphile-worker';
import type { Knex } from 'knex';
import { DEPLOY_BLUEPRINT, deployBlueprint } from './accounts/account-sites.js';
import { accountPreferencesTasks } from './account_preferences/tasks.js';

export function taskList(db: Knex): TaskList {
  return {
    [DEPLOY_BLUEPRINT]: deployBlueprint(db),
    ...accountPreferencesTasks(db),
  };
}
