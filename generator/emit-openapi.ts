// One OpenAPI 3.1 document per version.
import { fieldSchema, objectSchema, type JsonSchema } from './json-schema.js';
import { reachableComponents } from './openapi-reachable.js';
import type { ApiSpec, OperationSpec } from './spec-types.js';
import type { VersionView } from './versions.js';

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid parameters or body', 401: 'Missing or invalid authentication', 403: 'Credential lacks the required permission',
  404: 'Not found', 409: 'Conflict', 410: 'Gone', 422: 'Unprocessable', 429: 'Too many requests',
};

function responseSchema(spec: ApiSpec, op: OperationSpec): JsonSchema {
  const r = op.response;
  if (r.list) {
    const extra = Object.entries(r.list.fields ?? {});
    return {
      type: 'object',
      required: ['data', 'page_info'],
      properties: {
        data: { type: 'array', items: { $ref: `#/components/schemas/${r.list.of}` } },
        page_info: { $ref: '#/components/schemas/PageInfo' },
        ...Object.fromEntries(extra.map(([name, f]) => [name, fieldSchema(spec, f, 'output')])),
      },
    };
  }
  if (r.deleted) return { $ref: '#/components/schemas/Deleted' };
  if (r.type) return { $ref: `#/components/schemas/${r.type}` };
  return { type: 'object' };
}

function operationObject(spec: ApiSpec, op: OperationSpec, date: string): JsonSchema {
  const parameters: JsonSchema[] = [];
  for (const [name, f] of Object.entries(op.path_params)) {
    parameters.push({ name, in: 'path', required: true, schema: { type: 'string' }, ...(f.description ? { description: f.description } : {}) });
  }
  for (const [name, f] of Object.entries(op.query)) {
    const schema = fieldSchema(spec, f, 'input');
    parameters.push({
      name: f.type === 'array' ? `${name}[]` : name,
      in: 'query',
      required: !!f.required,
      schema,
      ...(f.description ? { description: f.description } : {}),
      ...(f.deprecated ? { deprecated: true } : {}),
    });
  }
  parameters.push({ name: 'Api-Version-Date', in: 'header', required: false, schema: { type: 'string', default: date } });
  // Credentials are checked before the version is known (a key's pin decides it), so a retired operation still asks
  // for them: it keeps its path and its security, and answers 410 only once the caller is authenticated.
  const security = op.auth.map((a) => ({ [a]: [] }));

  if (op.gone) {
    return {
      operationId: op.id, summary: op.summary, tags: [op.area], deprecated: true,
      description: `Gone as of ${op.gone.since}${op.gone.successor ? `; use ${op.gone.successor}` : ''}.`,
      parameters,
      responses: Object.fromEntries([400, 401, 410, 429].map((status) => [String(status), { $ref: `#/components/responses/E${status}` }])),
      security,
    };
  }
  if (op.idempotent) parameters.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } });
  const responses: Record<string, unknown> = {
    [String(op.response.status)]: {
      description: op.summary,
      content: { 'application/json': { schema: responseSchema(spec, op) } },
    },
  };
  // Every operation may answer 429 once its caller's budget is spent (spec/api.yaml rate_limits).
  for (const status of [...new Set([400, 401, 429, ...op.errors])].sort()) {
    responses[String(status)] = { $ref: `#/components/responses/E${status}` };
  }
  const out: JsonSchema = {
    operationId: op.id,
    summary: op.summary,
    tags: [op.area],
    ...(op.description ? { description: op.description } : {}),
    ...(op.deprecated ? { deprecated: true } : {}),
    parameters,
    responses,
    security,
    'x-scopes': op.scopes,
  };
  if (op.body) {
    out.requestBody = { required: true, content: { 'application/json': { schema: objectSchema(spec, op.body, 'input') } } };
  }
  return out;
}

/** The tags (areas) the version's operations carry, by name, with the area's description where it has one. */
function tagsOf(spec: ApiSpec, operations: readonly OperationSpec[]): JsonSchema[] {
  return [...new Set(operations.map((op) => op.area))].sort().map((name) => {
    const description = spec.areas[name]?.description;
    return description ? { name, description } : { name };
  });
}

export function emitOpenApi(spec: ApiSpec, view: VersionView): string {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of view.operations) {
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(spec, op, view.date);
  }
  const schemas: Record<string, unknown> = {};
  for (const [name, r] of Object.entries(view.resources)) {
    schemas[name] = { ...objectSchema(spec, r.fields, 'output'), ...(r.description ? { description: r.description } : {}) };
  }
  const responses: Record<string, unknown> = {};
  for (const status of [400, 401, 403, 404, 409, 410, 422, 429]) {
    responses[`E${status}`] = { description: STATUS_TEXT[status], content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  const sortedPaths = Object.fromEntries(Object.keys(paths).sort().map((p) => [p, paths[p]]));
  const securitySchemes = {
    api_key: { type: 'http', scheme: 'bearer', description: 'An account API key' },
    user_token: { type: 'http', scheme: 'bearer', description: 'A user token' },
    client: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'A client id alone, for frontend calls' },
  };
  const doc = {
    openapi: '3.1.0',
    info: { title: spec.info.title, version: spec.info.version, 'x-api-version-date': view.date, description: view.description },
    servers: [{ url: spec.info.base_path }],
    // Each area's description, shown by /docs above the area's operations.
    tags: tagsOf(spec, view.operations),
    paths: sortedPaths,
    components: reachableComponents(sortedPaths, { schemas, responses, securitySchemes }, ['securitySchemes']),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}
