// The format of spec/v2.yaml (the deprecated v2 API's route map), as JSON Schema; load-v2-map.ts checks it.
const identifier = { type: 'string', pattern: '^[a-z][a-z0-9_]*$' };
const operationId = { type: 'string', pattern: '^[a-z][a-zA-Z0-9]*$' };
const source = { type: 'string', pattern: '^(path|query)\\.[a-z_]+$' };

export const v2FileSchema = {
  $id: 'v2',
  type: 'object',
  additionalProperties: false,
  required: ['base_path', 'deprecated_at', 'render_version', 'guide_path', 'max_listed_items', 'routes'],
  properties: {
    base_path: { type: 'string', pattern: '^(/[a-z0-9_]+)+$' },
    deprecated_at: { type: 'string', format: 'date' },
    render_version: { type: 'string', format: 'date' },
    guide_path: { type: 'string', pattern: '^(/[a-z0-9_-]+)+$' },
    max_listed_items: { type: 'integer', minimum: 1, maximum: 100000 },
    renames: { type: 'object', propertyNames: identifier, additionalProperties: identifier },
    routes: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['route', 'current'],
        properties: {
          route: { type: 'string', pattern: '^(GET|POST|PATCH|PUT|DELETE) (/[a-z0-9_]+|/\\{[a-z_]+\\})+$' },
          current: operationId,
          path: { type: 'object', propertyNames: identifier, additionalProperties: source },
          query: { type: 'object', propertyNames: identifier, additionalProperties: source },
          body: { type: 'object', propertyNames: identifier },
          select: {
            type: 'object',
            additionalProperties: false,
            required: ['by', 'operations'],
            properties: {
              by: { type: 'string', pattern: '^body\\.[a-z_]+$' },
              operations: { type: 'object', minProperties: 1, additionalProperties: operationId },
            },
          },
          adapter: { type: 'string', pattern: '^[a-z][a-zA-Z0-9]*$' },
          also: { type: 'array', items: operationId, minItems: 1 },
          sunset: { type: 'string', format: 'date' },
          note: { type: 'string', minLength: 1 },
        },
      },
    },
  },
};
