// What the hosted checkout page gives the API's own functions in place of a request's context: the page's
// transaction for writes, jobs and events (runtime/effects.ts), and the head version's behaviour (the page is served
// by this server's current code, so every dated behaviour of the latest version applies).
import type { Knex } from 'knex';
import { Effects } from '../../generated/effects.js';
import { flagOn, headVersion } from '../../runtime/versions.js';
import { specData, type VersionFlag } from '../../generated/spec-data.js';

const VERSION_FLAGS = specData.versionFlags as Record<string, string>;

export class CheckoutContext extends Effects {
  constructor(db: Knex) {
    super(db);
  }

  flag(name: VersionFlag): boolean {
    return flagOn(headVersion(), VERSION_FLAGS[name]);
  }
}
