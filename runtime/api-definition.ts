// The API this process serves, as the runtime reads it: the spec's data, the response serialisers, the version
// transformers and the stored resources. The runtime declares here the shape it needs and imports no generated
// code; the generator emits one object of this shape (generated/api-definition.ts) and the composition root
// (wiring/compose.ts) installs it before any request or job runs. So the same runtime can serve any spec.
import type { StoredResource } from './plain/stored-resource.js';

/** A resource's lifecycle: the field holding its state and, by action, the states it leaves and the one it enters. */
export interface StateMachineDefinition {
  readonly field: string;
  readonly transitions: { readonly [action: string]: { readonly from: readonly string[]; readonly to: string } };
}

/** What the runtime reads of the spec, beyond its operations. */
export interface SpecDefinition {
  /** the path every operation's path is under, e.g. "/api/v1" */
  readonly basePath: string;
  /** the dated versions, newest (the head) first */
  readonly versions: readonly string[];
  /** behaviours a caller gets from a version on: flag -> the first version with it */
  readonly versionFlags: { readonly [flag: string]: string };
  /** role -> the scopes it grants ("*" = every scope) */
  readonly roles: { readonly [role: string]: readonly string[] };
  /** the scopes every user token holds on its own behalf, on no account */
  readonly userScopes: readonly string[];
  /** the read budget (GET, HEAD) and the write budget (every other method): so many requests per so many seconds */
  readonly rateLimits: { readonly [budget in 'read' | 'write']: { readonly requests: number; readonly perSeconds: number } };
  /** event type -> the schema of its object (what a delivery renders at the receiver's version) */
  readonly events: { readonly [type: string]: string };
  readonly stateMachines: { readonly [resource: string]: StateMachineDefinition };
}

export interface ApiDefinition {
  readonly spec: SpecDefinition;
  /** serializers[operationId][version](response) -> its JSON text, with only that version's fields */
  readonly serializers: { readonly [operationId: string]: { readonly [version: string]: (response: unknown) => string } };
  /** downgraders[schema][version](head object) -> the object as that version shows it; absent = unchanged */
  readonly downgraders: { readonly [schema: string]: { readonly [version: string]: (object: any) => any } };
  /** the resources whose spec names their table, by schema */
  readonly resources: { readonly [schema: string]: StoredResource<unknown> };
  /** fields the head hides, by schema then version: those that version shows */
  readonly shownHidden: { readonly [schema: string]: { readonly [version: string]: readonly string[] } };
  /** the folder holding the emitted documents: openapi.json (every version's: runtime/openapi-store.ts) and changelog.json */
  readonly documentsDir: string;
}

let installed: ApiDefinition | undefined;
const listeners: ((definition: ApiDefinition) => void)[] = [];

/** Hands the runtime the API it serves; a later call replaces it (a test composing another API). */
export function installApi(definition: ApiDefinition): void {
  installed = definition;
  for (const listener of listeners) listener(definition);
}

/** Calls `listener` with the API installed now, if any, and with every one installed later: for the few values a
 * module keeps derived from the definition (runtime/versions.ts's resolved headers). */
export function whenInstalled(listener: (definition: ApiDefinition) => void): void {
  listeners.push(listener);
  if (installed !== undefined) listener(installed);
}

/** The API installed; throws when none was, naming the step that is missing. */
export function api(): ApiDefinition {
  if (installed === undefined) {
    throw new Error('No API definition is installed: wiring/compose.ts (compose()) must run before requests, jobs '
      + 'or anything reading the spec');
  }
  return installed;
}
