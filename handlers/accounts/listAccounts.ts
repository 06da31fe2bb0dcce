import type { Handler } from '../../runtime/handler.js';

/** GET /accounts: List accounts */
export const listAccounts: Handler<'listAccounts'> = async (input, ctx) => {
  // Business logic goes here: input is validated and typed; throw ApiError for business-rule failures.
  throw new Error('listAccounts is not written yet');
};
