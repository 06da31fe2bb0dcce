import type { Handler } from '../../runtime/handler.js';

/** PATCH /accounts/{id}: Update an account */
export const updateAccount: Handler<'updateAccount'> = async (input, ctx) => {
  // Business logic goes here: input is validated and typed; throw ApiError for business-rule failures.
  throw new Error('updateAccount is not written yet');
};
