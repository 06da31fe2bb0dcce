// Routes outside the API prefix (no authentication, no versions), served by runtime/app.ts beside the operations.
import type { ExtraRoute } from '../runtime/app.js';
import { receiptRoutes } from './payments/receipts.js';
import { authenticationRoutes } from './sandbox/authentication-page.js';

export const extraRoutes: ExtraRoute[] = [...receiptRoutes, ...authenticationRoutes];
