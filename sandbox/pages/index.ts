// The sandbox's pages that stand in for outside parties' screens: the issuer's 3-D Secure step
// (authentication-page.ts) and a social network's consent screen (oauth-page.ts), served by wiring/routes.ts.
export { authenticationRoutes } from './authentication-page.js';
export { oauthRoutes } from './oauth-page.js';
