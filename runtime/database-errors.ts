// The safety net under the rules handlers enforce: a constraint of the database that a request still breaks (a race
// a handler did not serialize, a parent deleted under a child being written) answers a 4xx naming the constraint,
// not a 500. Handlers check their rules first and say them in their own words; these messages are the fallback.
import { ApiError } from './errors.js';

interface DatabaseError {
  code?: string;
  constraint?: string;
  table?: string;
  detail?: string;
  column?: string;
}

/** The columns a constraint's detail names ("Key (a, b)=(...) ..."), without the values, which may be anyone's. */
function keyColumns(detail: string | undefined): string | undefined {
  return /^Key \((.+?)\)=/.exec(detail ?? '')?.[1];
}

/** A column name a client sent, when the constraint is on one plain column (else none). */
function param(columns: string | undefined): string | undefined {
  return columns && /^[a-z_][a-z0-9_]*$/.test(columns) ? columns : undefined;
}

const CONCURRENT = 'it ran at the same time as another request that changed the same data; retry it';

/** The client error a PostgreSQL error means, or undefined when it is a server error. */
export function fromDatabaseError(e: unknown): ApiError | undefined {
  const err = e as DatabaseError;
  if (typeof err?.code !== 'string' || err.code.length !== 5) return undefined;
  const columns = keyColumns(err.detail);
  const where = err.table ? ` (${err.table}${columns ? ` ${columns}` : ''})` : '';
  switch (err.code) {
    case '23505': // unique_violation
      return new ApiError(409, 'conflict', `This would duplicate an existing record${where}: ${err.constraint ?? 'a unique key'} allows one`, param(columns));
    case '23503': { // foreign_key_violation
      const referenced = /is still referenced from table "([^"]+)"/.exec(err.detail ?? '')?.[1];
      return new ApiError(409, 'conflict', referenced
        ? `This is still referenced by ${referenced} records, so it cannot be removed`
        : `This refers to a record that does not exist or was just removed${where}`, referenced ? undefined : param(columns));
    }
    case '23514': // check_violation
      return new ApiError(409, 'conflict', `The request breaks the rule ${err.constraint ?? ''}${err.table ? ` of ${err.table}` : ''}; ${CONCURRENT} or change it`);
    case '40001': // serialization_failure
    case '40P01': // deadlock_detected
      return new ApiError(409, 'conflict', `The request could not complete: ${CONCURRENT}`);
    case '22001': // string_data_right_truncation
    case '22003': // numeric_value_out_of_range
    case '22007': // invalid_datetime_format
    case '22008': // datetime_field_overflow
    case '22P02': // invalid_text_representation
      return new ApiError(400, 'invalid_request', `A value is out of the range or form this field stores${err.column ? ` (${err.column})` : ''}`, err.column);
    default:
      return undefined;
  }
}
