import type { Handler } from '../../runtime/handler.js';

/** POST /accounts: Create an account */
export const createAccount: Handler<'createAccount'> = async (input, ctx) => {
  // Business logic goes here: input is validated and typed; throw ApiError for business-rule failures.
  throw new Error('createAccount is not written yet');
};
