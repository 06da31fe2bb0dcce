// What the plain kinds' checks share: the model of one plain operation the emitter writes, and how a problem is
// reported (at the operation's file:line:column).
import type { OperationSpec } from '../spec-types.js';
import type { StoredModel } from './stored-resources.js';

export interface PlainModel {
  op: OperationSpec;
  /** the stored resource it answers; none for a summary, which reads a totals table */
  resource: StoredModel | null;
  /** the runtime/plain factory and its options (name -> TypeScript expression) */
  factory: 'plainRetrieve' | 'plainList' | 'plainDelete' | 'plainUpdate' | 'plainSummary' | 'plainTransition' | 'plainCreate' | 'plainAction';
  options: [string, string][];
  /** whether handlers/<area>/<operationId>.ts exports the operation's hook */
  hook: boolean;
  /** the shared hook it names instead (plain.hook.code): module under handlers/ and export */
  sharedHook: { module: string; name: string } | null;
  /** the fill it imports (plain.fill.code): module under handlers/ and export */
  fill: { module: string; name: string; local: string } | null;
  /** the finder it imports (plain.find.code) */
  find: { module: string; name: string; local: string } | null;
}

/** Reports a problem at operations.<id>.<path> (key: at the key rather than its value). */
export type Problem = (path: (string | number)[], message: string, key?: boolean) => void;
