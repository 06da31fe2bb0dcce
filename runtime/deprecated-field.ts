// A field the spec marks deprecated (`deprecated:` on a resource's field or an operation's request field), as
// generated/deprecated-fields.ts lists them: where it is carried, at which versions. The generator writes these
// (generator/deprecated-fields.ts) and the deprecation report reads them (handlers/api_logs/deprecated-usage.ts).
export interface DeprecatedField {
  /** Schema.field, or operationId.in.field for a request field */
  id: string;
  field: string;
  schema: string | null;
  operation: string | null;
  since: string;
  successor: string | null;
  sunset: string | null;
  note: string | null;
  /** operation id -> the versions (newest first) at which its request or response carries the field */
  operations: Record<string, string[]>;
  /** event type -> the versions (newest first) at which its payload carries the field */
  events: Record<string, string[]>;
}
