// Derives the API as it stood at every dated version, newest first, from the head spec and the changelog.
// Each version's view is what the emitters work from: operations, their inputs and the resource shapes.
// The changelog's declarative instructions are applied here (see apply-changes.ts when present); a version
// without changes is structurally the head, so emitters share its compiled code.
import type { ApiSpec, OperationSpec, ResourceSpec } from './spec-types.js';

export interface VersionView {
  date: string;
  description: string;
  operations: OperationSpec[];
  resources: Record<string, ResourceSpec>;
}

export function deriveVersions(spec: ApiSpec): VersionView[] {
  const views: VersionView[] = [];
  let operations = spec.operations;
  let resources: Record<string, ResourceSpec> = { ...spec.components, ...spec.resources };
  for (const version of spec.versions) {
    views.push({ date: version.date, description: version.description, operations, resources });
    // Changes listed under a version describe what the version before it looked like.
    for (const change of version.changes) {
      if (change.pending) continue;
      ({ operations, resources } = applyChange(change, operations, resources));
    }
  }
  return views;
}

function applyChange(
  change: { description: string },
  operations: OperationSpec[],
  resources: Record<string, ResourceSpec>,
): { operations: OperationSpec[]; resources: Record<string, ResourceSpec> } {
  throw new Error(`no declarative instruction is implemented yet for the change "${change.description}"; mark it pending`);
  return { operations, resources };
}

export function headVersion(spec: ApiSpec): string {
  return spec.versions[0].date;
}
