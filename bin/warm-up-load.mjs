// The warm-up server's code (bin/warm-up.ts): the API process's bundle, loaded into `npm start`'s primary by the
// launcher (bin/launch.mjs) once dist/ is current, and taken from here by the compiled primary. Plain
// JavaScript: the launcher runs it before anything is compiled.
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { API_PROCESS_NODE_FLAGS } from './api-cluster.mjs';

/** Set before the bundle loads: it then only exports serveWarmUp instead of running as an API process
 * (bin/api-process.ts). */
export const WARM_UP_LOAD = Symbol.for('commerce-platform.api-warm-up-load');
/** The loaded bundle's exports: the launcher's copy of this module and the compiled primary's are two modules. */
const PRELOADED = Symbol.for('commerce-platform.api-bundle-preloaded');

/** Loads the API process's bundle through its runner (dist/bin/api-process.cjs); a bundle that fails to load is left
 * to the API processes to report.
 * @param {string} runner */
export function preloadApiBundle(runner) {
  // V8's code cache is valid for one set of V8 flags: with the API processes' flags set here too, this process reads
  // the cache they write and they read the one it writes, instead of each rejecting the other's and writing its own.
  for (const flag of API_PROCESS_NODE_FLAGS) setFlagsFromString(flag);
  globalThis[WARM_UP_LOAD] = true;
  try {
    globalThis[PRELOADED] = createRequire(import.meta.url)(runner);
  } catch {
    delete globalThis[PRELOADED];
  }
}

/** @returns {unknown} the preloaded bundle's exports, if any */
export function preloadedApiBundle() {
  return globalThis[PRELOADED];
}
