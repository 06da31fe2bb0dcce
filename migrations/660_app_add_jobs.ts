// The jobs a request queued, added at its COMMIT in one call: the runtime's step (runtime/migrations/002_add_jobs.ts),
// which this project's migrations take in their own order (runtime/migrate.ts: they predate the runtime's set).
export { up, down } from '../runtime/migrations/002_add_jobs.js';
