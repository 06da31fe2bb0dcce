// The one error type handlers and the framework throw; app.ts renders it as the error envelope.
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly type: string,
    message: string,
    public readonly param?: string,
    public readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The same error naming its parameter as the caller sent it (an older version's or the v2 API's name for an input
 * the Current operation renamed); `inMessage` also renames it in the message. Other errors are returned as they are. */
export function withCallersParam(e: unknown, callersName: (param: string) => string, inMessage = false): unknown {
  if (!(e instanceof ApiError) || !e.param) return e;
  const name = callersName(e.param);
  if (name === e.param) return e;
  return new ApiError(e.status, e.type, inMessage ? e.message.split(e.param).join(name) : e.message, name, e.headers);
}

export const invalid = (message: string, param?: string) => new ApiError(400, 'invalid_request', message, param);
export const notFound = (what: string, id: string, param?: string) =>
  new ApiError(404, 'not_found', `No such ${what}: '${id}'`, param);
export const forbidden = (message: string) => new ApiError(403, 'permission_denied', message);
export const conflict = (message: string, param?: string) => new ApiError(409, 'conflict', message, param);
export const unauthenticated = (message: string) =>
  new ApiError(401, 'authentication_required', message, undefined, { 'WWW-Authenticate': 'Bearer realm="api"' });
