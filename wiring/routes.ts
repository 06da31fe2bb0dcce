// Routes outside the API prefix (no authentication, no versions), served by runtime/app.ts beside the operations.
import './compose.js';
import type { ExtraRoute, Mount } from '../runtime/app.js';
import { receiptRoutes } from '../handlers/payments/index.js';
import { fileRoutes } from '../handlers/files/index.js';
import { hostedAppRoutes } from '../handlers/apps/index.js';
import { websiteRoutes } from '../handlers/accounts/index.js';
import { authenticationRoutes, oauthRoutes } from '../sandbox/pages/index.js';
import { transferRoutes } from '../handlers/transfers/index.js';
import { checkoutRoutes } from '../handlers/checkout/index.js';
import { v2GuideRoutes } from '../handlers/v2/index.js';
import { workbenchRoutes } from '../handlers/api_keys/index.js';
import { v2Api } from '../runtime/v2/legacy-api.js';
import { v2Routes, v2Settings } from '../generated/v2-routes.js';
import { operations } from '../generated/routes.js';
import type { SecretRoute } from '../runtime/secret-paths.js';

export const extraRoutes: ExtraRoute[] = [...receiptRoutes, ...authenticationRoutes, ...oauthRoutes, ...transferRoutes, ...checkoutRoutes, ...v2GuideRoutes, ...fileRoutes,
  ...hostedAppRoutes, ...websiteRoutes, ...workbenchRoutes];

/** The deprecated v2 API (spec/v2.yaml), served beside the Current API over the same operations. */
export const mounts: Mount[] = [Object.assign(
  ({ db, operations, rateLimits }: Parameters<Mount>[0]) => v2Api({ db, operations, rateLimits, routes: v2Routes, settings: v2Settings }),
  { secretRoutes: v2SecretRoutes() },
)];

/** The v2 routes whose path carries what their Current operation declares secret (spec: `secret: true`). */
function v2SecretRoutes(): SecretRoute[] {
  return v2Routes.map((route) => {
    const secret = operations.find((op) => op.id === route.current)?.secretParams ?? [];
    const sources = secret.map((name) => route.pathFrom[name] ?? `path.${name}`);
    return { path: `${v2Settings.basePath}${route.path}`, secretParams: sources.filter((s) => s.startsWith('path.')).map((s) => s.slice(5)) };
  });
}
