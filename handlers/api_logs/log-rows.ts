// The api log rows of batches (migrations/490_api_log_batches.ts): `b` a set of api_log_batches rows, each split
// into its requests (a column's values joined by U+001F, an empty one null) as the ApiLog resource's columns. A
// log's id is its time in milliseconds (12 hex digits) and its request id's random part, compared bytewise (collate
// "C") so that the database orders ids as handlers/api_logs/listApiLogs.ts does when it merges batches.
import { API_LOG_BATCH_MS } from '../../runtime/api-log.js';

const split = (column: string, type = 'text') => `string_to_array(b.${column}, E'\\x1f', '')::${type}[]`;

export const LOG_ROWS = `('alog_' || lpad(to_hex(r.at_ms), 12, '0') || substr(r.request_id, 5)) collate "C" as id, b.account_id, r.api_key_id,
    r.user_id, r.credential_kind, r.operation, r.method, r.path, r.status,
    case when r.status >= 500 then 'server_error' when r.status >= 400 then 'client_error' else 'success' end as outcome,
    r.duration_ms, r.api_version, r.request_id, timestamptz 'epoch' + r.at_ms * interval '1 millisecond' as created_at`;
export const UNNEST_LOGS = `cross join lateral unnest(${split('api_key_ids')}, ${split('user_ids')}, ${split('kinds')},
    ${split('operations')}, ${split('methods')}, ${split('paths')}, ${split('statuses', 'int')}, ${split('durations', 'int')},
    ${split('versions')}, ${split('request_ids')}, ${split('created_ms', 'bigint')}, ${split('targets')})
    as r(api_key_id, user_id, credential_kind, operation, method, path, status, duration_ms, api_version, request_id, at_ms, target)`;

/** How far a batch's first request can precede its last (the writer's grouping), as an SQL interval. */
export const BATCH_SPAN = `interval '${API_LOG_BATCH_MS} milliseconds'`;
