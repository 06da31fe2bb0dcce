// spec/ -> a validated, normalised ApiSpec, or a SpecError listing every problem with its position.
import { join, basename } from 'node:path';
import { existsSync } from 'node:fs';
import Ajv2019 from 'ajv/dist/2019.js';
import addFormats from 'ajv-formats';
import { apiFileSchema, areaFileSchema, changeFileSchema, versionFileSchema } from './meta-schema.js';
import { loadVersions } from './load-versions.js';
import { explainErrors } from './explain-errors.js';
import { listAreaFiles, locate, readSpecFile, SpecError, type SourceFile } from './spec-source.js';
import type { ApiSpec, FieldSpec, OperationSpec, ResourceSpec } from './spec-types.js';
import { normaliseField, normaliseFields } from './normalise.js';
export { normaliseField, normaliseFields };
import { checkReferences, type Locator } from './check-references.js';
import { checkInputRules } from './input-rules.js';
import { resolveAliases } from './aliases.js';
import { checkSunsets } from './sunset-evidence.js';
import { checkDeprecatedFields } from './deprecated-fields.js';
import { storedModels } from './plain/stored-resources.js';
import { plainModels } from './plain/plain-operations.js';
import { readTables } from './emit-rows.js';

function normaliseResource(raw: ResourceSpec): ResourceSpec {
  return { ...raw, fields: normaliseFields(raw.fields) };
}

function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
}

/** List operations take the cursor parameters the seed defines, bounded by the operation's page size. */
function withPageParams(query: Record<string, FieldSpec>, list: { max_page_size: number } | undefined): Record<string, FieldSpec> {
  if (!list) return query;
  const size = (what: string): FieldSpec => ({ type: 'integer', min: 1, max: list.max_page_size, description: what });
  const cursor = (what: string): FieldSpec => ({ type: 'string', max_length: 512, description: what });
  return {
    first: size('Page size: items from the start of the range.'),
    after: cursor('Cursor; items after it.'),
    last: size('Items from the end of the range.'),
    before: cursor('Cursor; items before it.'),
    ...query,
  };
}

/** Enums declared with `values_from: events` take every declared event name, sorted (e.g. webhook subscriptions). */
function resolveCatalogues(spec: ApiSpec): void {
  const events = Object.keys(spec.events).sort();
  const resolve = (f: FieldSpec): void => {
    if (f.values_from === 'events') {
      f.values = events;
      delete f.values_from;
    }
    for (const g of [f.items, f.of, ...Object.values(f.fields ?? {})]) if (g) resolve(g);
  };
  for (const op of spec.operations) for (const f of [...Object.values(op.query), ...Object.values(op.body ?? {})]) resolve(f);
  for (const r of [...Object.values(spec.resources), ...Object.values(spec.components)]) Object.values(r.fields).forEach(resolve);
}

export interface LoadedSpec {
  spec: ApiSpec;
  sources: Record<string, SourceFile>;
}

export function loadSpec(root: string): LoadedSpec {
  const specDir = join(root, 'spec');
  // verbose: errors carry their schema, so an unknown key can be matched against the known ones ("did you mean").
  const ajv = new Ajv2019.default({ allErrors: true, strict: false, verbose: true });
  addFormats.default(ajv);
  const validators = {
    api: ajv.compile(apiFileSchema),
    area: ajv.compile(areaFileSchema),
    version: ajv.compile(versionFileSchema),
    change: ajv.compile(changeFileSchema),
  };
  const problems: string[] = [];
  const sources: Record<string, SourceFile> = {};

  const read = (file: string, kind: keyof typeof validators): SourceFile | undefined => {
    if (!existsSync(file)) {
      problems.push(`${file}: missing; the spec needs this file`);
      return undefined;
    }
    try {
      const source = readSpecFile(root, file);
      sources[source.path] = source;
      const validate = validators[kind];
      if (!validate(source.data)) problems.push(...explainErrors(source, validate.errors ?? []));
      return source;
    } catch (e) {
      if (e instanceof SpecError) problems.push(...e.problems);
      else throw e;
      return undefined;
    }
  };

  const api = read(join(specDir, 'api.yaml'), 'api');
  const versions = loadVersions(root, specDir, read, problems);
  const areas = listAreaFiles(specDir).map((f) => ({ area: basename(f, '.yaml'), source: read(f, 'area') }));
  if (problems.length) throw new SpecError(problems);

  const apiData = api!.data as Record<string, any>;
  const spec: ApiSpec = {
    info: apiData.info,
    scopes: apiData.scopes,
    roles: apiData.roles,
    user_scopes: apiData.user_scopes,
    errors: apiData.errors,
    rate_limits: apiData.rate_limits,
    ...(apiData.webhook_delivery ? { webhook_delivery: apiData.webhook_delivery } : {}),
    components: Object.fromEntries(
      Object.entries(apiData.components as Record<string, ResourceSpec>).map(([k, v]) => [k, normaliseResource(v)]),
    ),
    resources: {},
    operations: [],
    versions: versions.versions,
    version_flags: versions.version_flags,
    events: {},
    state_machines: {},
    areas: {},
  };

  for (const { area, source } of areas) {
    const data = source!.data as {
      description?: string; resources?: Record<string, ResourceSpec>; operations?: Record<string, any>; state_machines?: Record<string, any>;
      events?: Record<string, { schema: string; description: string }>;
    };
    spec.areas[area] = data.description ? { description: data.description } : {};
    for (const [name, event] of Object.entries(data.events ?? {})) {
      if (spec.events[name]) problems.push(`${locate(source!, ['events', name], true)}: the event ${name} is declared twice`);
      spec.events[name] = { ...event, area };
    }
    for (const [name, machine] of Object.entries(data.state_machines ?? {})) {
      if (spec.state_machines[name]) problems.push(`${source!.path}: the state machine ${name} is defined twice`);
      spec.state_machines[name] = { ...machine, area };
    }
    for (const [name, resource] of Object.entries(data.resources ?? {})) {
      if (spec.resources[name] || spec.components[name]) {
        const first = spec.components[name] ? 'spec/api.yaml components' : `spec/areas/${spec.resources[name].area}.yaml`;
        problems.push(`${locate(source!, ['resources', name], true)}: the resource ${name} is defined twice; it is also in ${first}`);
        continue;
      }
      spec.resources[name] = { ...normaliseResource(resource), area };
      for (const [field, f] of Object.entries(spec.resources[name].fields ?? {})) {
        if (f.secret) problems.push(`${locate(source!, ['resources', name, 'fields', field], true)}: secret marks path parameters only (request logs never record queries or bodies)`);
      }
    }
    for (const [id, op] of Object.entries(data.operations ?? {})) {
      const declared = normaliseFields(op.path_params);
      const path_params: Record<string, FieldSpec> = {};
      for (const name of pathParamNames(op.path)) path_params[name] = { ...(declared[name] ?? { type: 'string' }), required: true };
      // A retired operation declared without its shape is only a 410 (generator/gone.ts).
      const retiredOnly = !!op.gone && !op.response;
      const operation: OperationSpec = {
        id,
        area,
        method: op.method,
        path: op.path,
        summary: op.summary,
        description: op.description,
        handler: op.handler ?? `${area}/${id}`,
        auth: op.auth ?? ['api_key', 'user_token'],
        scopes: op.scopes ?? [],
        account: op.account,
        idempotent: op.idempotent ?? op.method === 'POST',
        path_params,
        query: withPageParams(normaliseFields(op.query), op.response?.list),
        body: retiredOnly ? undefined : op.body ? normaliseFields(op.body) : op.method === 'GET' || op.method === 'DELETE' ? undefined : {},
        response: retiredOnly
          ? { status: 410, fields: {} }
          : {
            ...op.response,
            status: op.response.status ?? 200,
            fields: op.response.fields ? normaliseFields(op.response.fields) : undefined,
            list: op.response.list && { ...op.response.list, fields: op.response.list.fields && normaliseFields(op.response.list.fields) },
          },
        gone: op.gone && (retiredOnly ? op.gone : { ...op.gone, shaped: true }),
        plain: op.plain,
        errors: op.errors ?? [],
        deprecated: op.deprecated,
        same_as: op.same_as,
        where: locate(source!, ['operations', id], true),
      };
      for (const part of ['query', 'body'] as const) {
        for (const [name, f] of Object.entries(operation[part] ?? {})) {
          if (f.secret) problems.push(`${locate(source!, ['operations', id, part, name], true)}: secret marks path parameters only (request logs never record queries or bodies)`);
        }
      }
      for (const part of ['query', 'body'] as const) {
        for (const [name, f] of Object.entries(operation[part] ?? {})) {
          if (f.aliases) problems.push(`${locate(source!, ['operations', id, part, name], true)}: aliases name path parameters only`);
        }
      }
      // The runtime fills a successor's placeholders from the request's path parameters (runtime/successor-link.ts).
      for (const name of pathParamNames(op.deprecated?.successor ?? '')) {
        if (!(name in path_params)) problems.push(`${locate(source!, ['operations', id, 'deprecated', 'successor'], true)}: the successor ${op.deprecated!.successor} names {${name}}, which is not a parameter of ${op.path}`);
      }
      for (const [name, f] of Object.entries(declared)) {
        // A lookup skips values that carry the id's prefix (they are ids): it needs to know the prefix.
        if (f.aliases?.lookup && (f.type !== 'id' || !f.resource)) {
          problems.push(`${locate(source!, ['operations', id, 'path_params', name], true)}: aliases.lookup needs type id with a resource (whose prefix marks an id)`);
        }
      }
      for (const name of Object.keys(declared)) {
        if (!(name in path_params)) {
          problems.push(`${locate(source!, ['operations', id, 'path_params', name], true)}: operations.${id}.path_params names "${name}", which is not in the path ${op.path}`);
        }
      }
      spec.operations.push(operation);
    }
  }
  resolveCatalogues(spec);
  const at: Locator = (file, path, key) => (sources[file] ? locate(sources[file], path, key) : file);
  problems.push(...resolveAliases(spec, at));
  problems.push(...checkReferences(spec, at));
  problems.push(...checkDeprecatedFields(spec, at));
  problems.push(...checkSunsets(spec, at, root));
  if (!problems.length) plainModels(spec, storedModels(spec, at, problems), at, problems, readTables(root));
  if (problems.length) throw new SpecError(problems);
  problems.push(...checkInputRules(spec, at));
  if (problems.length) throw new SpecError(problems);
  return { spec, sources };
}
