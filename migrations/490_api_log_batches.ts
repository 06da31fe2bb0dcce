// Api logs stored a batch at a time: one row per account and minute of each batch the writer flushes
// (runtime/api-log.ts), its requests' values as texts, one per column, joined by U+001F (an empty value is null).
// A row per request cost PostgreSQL ~20 µs of CPU for the heap tuple and its three index entries (measured: 100,000
// rows in 500-row inserts on PostgreSQL 15, 2.2 s with the indexes, 0.8 s without), about a tenth of a read's whole
// cost; a batch row carries up to 500 requests for one index entry, and the database stores its texts as they come.
// Reads split them (handlers/api_logs/log-rows.ts; the view api_logs below, for reading by hand, is this
// migration's own text, frozen with it). A log's id is made of its time and its request id's random part, so it is
// not stored. A batch spans less than a minute (the writer groups requests by minute), which bounds how far a
// page's rows can sit from their batch's last_at (handlers/api_logs/listApiLogs.ts).
import type { Knex } from 'knex';

const COLUMNS = ['api_key_ids', 'user_ids', 'kinds', 'operations', 'methods', 'paths', 'statuses', 'durations', 'versions', 'request_ids', 'created_ms'];
const ROWS = `('alog_' || lpad(to_hex(r.at_ms), 12, '0') || substr(r.request_id, 5)) collate "C" as id, b.account_id, r.api_key_id, r.user_id,
    r.credential_kind, r.operation, r.method, r.path, r.status,
    case when r.status >= 500 then 'server_error' when r.status >= 400 then 'client_error' else 'success' end as outcome,
    r.duration_ms, r.api_version, r.request_id, timestamptz 'epoch' + r.at_ms * interval '1 millisecond' as created_at`;
const split = (column: string, type = 'text') => `string_to_array(b.${column}, E'\\x1f', '')::${type}[]`;
const UNNEST = `cross join lateral unnest(${split('api_key_ids')}, ${split('user_ids')}, ${split('kinds')}, ${split('operations')},
    ${split('methods')}, ${split('paths')}, ${split('statuses', 'int')}, ${split('durations', 'int')}, ${split('versions')},
    ${split('request_ids')}, ${split('created_ms', 'bigint')})
    as r(api_key_id, user_id, credential_kind, operation, method, path, status, duration_ms, api_version, request_id, at_ms)`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create table api_log_batches (
    id text primary key,
    account_id text, -- null: user-token requests, which are kept but not listed
    first_at timestamptz not null,
    last_at timestamptz not null,
    entries integer not null,
    ${COLUMNS.map((c) => `${c} text not null`).join(',\n    ')},
    check (last_at - first_at < interval '1 minute'))`);
  // Stored uncompressed: pglz on every batch would cost more CPU than the space it saves for a week of logs.
  for (const column of COLUMNS) await knex.raw(`alter table api_log_batches alter column ${column} set storage external`);
  await knex.raw('create index api_log_batches_account_last_at on api_log_batches (account_id, last_at, id)');
  await knex.raw('create index api_log_batches_last_at_brin on api_log_batches using brin (last_at)');
  const joined = (value: string) => `string_agg(coalesce(${value}, ''), E'\\x1f' order by created_at, id)`;
  await knex.raw(`insert into api_log_batches (id, account_id, first_at, last_at, entries, ${COLUMNS.join(', ')})
    select 'alogb_' || replace(gen_random_uuid()::text, '-', ''), account_id, min(created_at), max(created_at), count(*),
      ${joined('api_key_id')}, ${joined('user_id')}, ${joined('credential_kind')}, ${joined('operation')}, ${joined('method')},
      ${joined('path')}, ${joined('status::text')}, ${joined('duration_ms::text')}, ${joined('api_version')}, ${joined('request_id')},
      ${joined('(extract(epoch from created_at) * 1000)::bigint::text')}
    from api_logs group by account_id, date_trunc('minute', created_at)`);
  await knex.raw('drop table api_logs');
  await knex.raw(`create view api_logs as select ${ROWS} from api_log_batches b ${UNNEST}`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('create table api_logs_rows as select * from api_logs');
  await knex.raw('drop view api_logs');
  await knex.raw('drop table api_log_batches');
  await knex.raw('alter table api_logs_rows rename to api_logs');
  await knex.raw('alter table api_logs add primary key (id)');
  await knex.raw('create index on api_logs (account_id, created_at, id)');
  await knex.raw('create index on api_logs (api_key_id, created_at, id)');
  await knex.raw('create index api_logs_created_at_brin on api_logs using brin (created_at)');
}
