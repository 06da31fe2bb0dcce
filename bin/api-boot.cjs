// What an API process runs first under `npm start` (bin/api-cluster.mjs): Node boots (~45 ms of a start) while the
// primary is still checking dist/ and loading its own code, and the API process's code (process.argv[2], normally
// dist/bin/api-process.cjs) is loaded only when the primary says so, so that a dist/ rebuilt meanwhile is the one
// loaded. A primary that goes away before that (a failed build, a refused setting) leaves nothing to run.
'use strict';

const file = process.argv[2];
const onMessage = (message) => {
  if (message?.type !== 'api-process-load') return;
  process.off('message', onMessage);
  process.off('disconnect', onDisconnect);
  require(file);
};
const onDisconnect = () => process.exit(0);
process.on('message', onMessage);
process.on('disconnect', onDisconnect);
