// What the rest of the project uses of the checkout area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by the wiring and the entry points
export { checkoutRoutes } from './checkout-routes.js';
