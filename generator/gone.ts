// Retired operations: versions are shapes, never absences. An operation declared `gone: { since }` answers 410 from
// `since` on. Declared with its shape too (a response, and the inputs, scopes, account and handler or plain kind of
// any operation), it is served in that shape at every version before `since`: the shape declared is the one of the
// version just before `since`, and older instructions in spec/versions/ reach further back as for any operation.
// Declared without a response it is only a 410 (at versions before `since` it has no route).
import type { OperationSpec } from './spec-types.js';

/** Whether the operation runs a handler at some version: every live operation, and a retired one with its shape. */
export const isServed = (op: OperationSpec): boolean => !op.gone || !!op.gone.shaped;

/** A retired operation from its `since` on: no inputs, no shape, a 410. */
export const retiredForm = (op: OperationSpec): OperationSpec =>
  ({ ...op, query: {}, body: undefined, response: { status: 410, fields: {} } });

/** A retired operation with its shape, at the versions before `since`: served like a live one. */
export const servedForm = (op: OperationSpec): OperationSpec => ({ ...op, gone: undefined });
