// The shape of generated/changelog.json and of a diff between two versions. The runtime reads that file
// (./changelog.ts) and the generator writes it (generator/diff.ts, generator/emit-changelog.ts): the reader owns the
// contract, so the generator imports these types and the runtime imports nothing from generator/
// (.dependency-cruiser.cjs). `Kind` lets the generator narrow a change's kind to its instruction kinds.

/** One change, as seen by a caller moving from the older version (`from`) to the newer (`to`). */
export interface Change<Kind extends string = string> {
  kind: Kind;
  /** the field or parameter (dotted, the newer name), or null when the change is about the whole object or endpoint */
  field: string | null;
  /** where the field is: the response, the request body or the query */
  in: 'response' | 'body' | 'query' | null;
  /** what the older version had, and what the newer has */
  from: unknown;
  to: unknown;
  breaking: boolean;
  /** the change in words */
  description: string;
  /** the changelog entry it belongs to: a key of Diff.changelog */
  ref: string;
}

export interface ChangelogEntry {
  version: string;
  entry: number | null;
  text: string;
  migration: string | null;
}

export interface Diff<Kind extends string = string> {
  from: string;
  to: string;
  /** the dates were given newest first and were swapped */
  swapped: boolean;
  versionsCrossed: string[];
  summary: {
    breaking: number; additive: number; operations: number; resources: number; migrations: number;
    pendingInRange: number; pendingTotal: number;
  };
  /** every changelog entry crossed, by ref (`<version>#<entry>`) */
  changelog: Record<string, ChangelogEntry>;
  operations: Record<string, { route: string; changes: Change<Kind>[] }>;
  resources: Record<string, { usedBy: string[]; changes: Change<Kind>[] }>;
  /** behaviour changes (version flags) crossed: same shapes, different effects */
  behaviour: Change<Kind>[];
  migrations: { name: string; version: string; ref: string }[];
  pending: { ref: string; version: string; entry: number | null; text: string }[];
}

export interface ChangelogEntryView {
  ref: string;
  entry: number | null;
  text: string;
  migration: string | null;
  pending: boolean;
  flags: string[];
  breaking: boolean;
}

/** generated/changelog.json */
export interface ChangelogData {
  /** newest first, like the version folders of spec/versions/ */
  versions: { date: string; description: string; entries: ChangelogEntryView[] }[];
  /** by the newer date: the diff from the version just before it */
  steps: Record<string, Diff>;
}
