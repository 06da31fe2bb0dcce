// What the rest of the project uses of the external_accounts area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { AUTHORIZE_PATH, HANDLE, answerConnection, pendingConnection } from './oauth-connections.js';
export type { Answer } from './oauth-connections.js';
export { socialNetwork } from './social-network-port.js';
export type { NetworkPost, NetworkProfile, SocialNetwork } from './social-network-port.js';

// Used by the wiring and the entry points
export { externalAccountTasks } from './connect-external-account.js';

// Used by tests and the bench
export { CONNECT_EXTERNAL_ACCOUNT, connectExternalAccount } from './connect-external-account.js';
