// The error envelope every refusal is answered with, naming the request it answers.
import type { ApiError } from '../errors.js';

export function errorBody(e: ApiError, requestId: string) {
  return { error: { type: e.type, message: e.message, ...(e.param ? { param: e.param } : {}), request_id: requestId } };
}
