// What the rest of the project uses of the apps area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export type { BuildSystem } from './build-system-port.js';
export { loadApp } from './load-app.js';
export { answerPage, pathUnder, serveBuild } from './serve-build.js';

// Used by the wiring and the entry points
export { appBuildTasks } from './build-jobs.js';
export { buildSystem } from './build-system-port.js';
export { hostedAppRoutes } from './hosted-app-pages.js';

// Bound by generated routes and resources
export { buildsOfOneApp, domainsOfOneApp } from './app-scoped-list.js';
export { domainUrlOf, domainsOf, hostedUrlOf } from './app-urls.js';
export { updateApp } from './updateApp.js';

// Used by tests and the bench
export { CHECK_APP_BUILD, REVIEW_APP_BUILD, checkAppBuild, reviewAppBuild } from './build-jobs.js';
