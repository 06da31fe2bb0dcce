// Upgrade: a request of an older version, validated in its own shape, becomes the head shape the handler takes.
import type { OperationCall, OperationInput } from './operation-call.js';

/** A new holder (the validated one stays as sent, for the idempotency hash); the upgrade edits the parts in place. */
export function upgradedInput({ at }: OperationCall, validated: OperationInput): OperationInput {
  const input = { path: validated.path, query: validated.query, body: validated.body };
  at.upgrade?.(input);
  return input;
}
