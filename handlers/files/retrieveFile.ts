import type { Handler } from '../../generated/handler.js';
import { loadOwnFile } from './file-owner.js';
import { fileView } from './file-view.js';

/** GET /files/{id}: only the creator's (others 404). Written, not plain: a file belongs to the credential that made it
 * (an API key's account or a user token's user), not to an account's scopes, and its view depends on the time (an
 * upload window that closed reads as failed). */
export const retrieveFile: Handler<'retrieveFile'> = async ({ path }, ctx) => fileView(await loadOwnFile(ctx, path.id));
