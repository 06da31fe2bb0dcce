// An operation that echoes its validated input, mounted by the real runtime (auth, versions, validation) on a
// second server over a test database: it exercises query parsing for field types the spec does not use yet
// (arrays), with validators compiled from the generator's own JSON Schema and ajv options.
import Ajv2019 from 'ajv/dist/2019.js';
import addFormats from 'ajv-formats';
import type { Knex } from 'knex';
import { objectSchema } from '../../generator/json-schema.js';
import type { ApiSpec, FieldSpec } from '../../generator/spec-types.js';
import type { CompiledValidator } from '../../runtime/validation.js';
import type { OperationDefinition, VersionedInput } from '../../runtime/operation.js';
import { startServer, type RunningServer } from '../../runtime/server.js';
import { specData } from '../../generated/spec-data.js';

export const ECHO_QUERY: Record<string, FieldSpec> = {
  tags: { type: 'array', items: { type: 'string', max_length: 20 }, max_items: 5 },
  nums: { type: 'array', items: { type: 'integer', min: 0 } },
  n: { type: 'integer', min: 1, max: 10 },
  flag: { type: 'boolean' },
  kind: { type: 'enum', values: ['a', 'b'] },
  note: { type: 'string', max_length: 30 },
};

function compile(fields: Record<string, FieldSpec>, coerce = true): CompiledValidator {
  // The same options generator/emit-validators.ts compiles validators with (bodies are not coerced).
  const ajv = new Ajv2019.default({ allErrors: false, strict: false, coerceTypes: coerce ? 'array' : false, useDefaults: true, removeAdditional: false });
  addFormats.default(ajv);
  const spec = { resources: {}, components: {} } as unknown as ApiSpec;
  return ajv.compile(objectSchema(spec, fields, 'input')) as unknown as CompiledValidator;
}

/** The same validators at every version. */
function atEveryVersion(
  path: Record<string, FieldSpec>,
  query: Record<string, FieldSpec>,
  body?: Record<string, FieldSpec>,
): Record<string, VersionedInput> {
  const input: VersionedInput = {
    path: compile(path), query: compile(query), body: body ? compile(body, false) : null, upgrade: null, downgrade: null,
  };
  return Object.fromEntries(specData.versions.map((v) => [v, input]));
}

export function echoOperation(): OperationDefinition {
  return {
    id: 'echoInput',
    method: 'GET',
    path: '/test_echo/:id',
    auth: ['api_key', 'user_token'],
    scopes: [],
    account: null,
    idempotent: false,
    status: 200,
    list: null,
    deprecated: null,
    gone: null,
    versions: atEveryVersion({ id: { type: 'string', required: true } }, ECHO_QUERY),
    handler: async (args: { path: unknown; query: unknown }) => ({ path: args.path, query: args.query }),
  };
}

/** An operation whose handler fails unexpectedly, as a bug would: the client must see a bare 500 envelope. */
export function failingOperation(): OperationDefinition {
  return {
    ...echoOperation(),
    id: 'failUnexpectedly',
    path: '/test_fail',
    versions: atEveryVersion({}, {}),
    handler: async () => {
      const row = undefined as unknown as { id: string };
      return row.id; // TypeError, with a stack pointing into this file
    },
  };
}

/**
 * A creating operation whose first attempt fails unexpectedly (as a crash would) and whose later attempts succeed,
 * counting attempts per `n`: a server error must free the Idempotency-Key so the client's retry runs.
 */
export function flakyCreateOperation(): OperationDefinition {
  const attempts = new Map<number, number>();
  return {
    ...echoOperation(),
    id: 'createFlakyThing',
    method: 'POST',
    path: '/test_flaky',
    idempotent: true,
    status: 201,
    versions: atEveryVersion({}, {}, { n: { type: 'integer', required: true } }),
    handler: async ({ body }: { body: { n: number } }) => {
      const attempt = (attempts.get(body.n) ?? 0) + 1;
      attempts.set(body.n, attempt);
      if (attempt === 1) throw new Error('the first attempt crashes');
      return { n: body.n, attempt };
    },
  };
}

export async function startEchoServer(db: Knex): Promise<RunningServer & { base: string }> {
  const operations = [failingOperation(), flakyCreateOperation(), echoOperation()];
  const server = await startServer({ db, databaseUrl: '', operations, tasks: {}, port: 0, worker: false });
  return Object.assign(server, { base: `${server.url}${specData.basePath}` });
}
