import type { Handler } from '../../generated/handler.js';
import { loadOwnFile } from './file-owner.js';
import { fileView } from './file-view.js';

/** GET /files/{id}: only the creator's (others 404). */
export const retrieveFile: Handler<'retrieveFile'> = async ({ path }, ctx) => fileView(await loadOwnFile(ctx, path.id));
