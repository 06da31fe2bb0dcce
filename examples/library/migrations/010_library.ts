// The library's own tables: the catalogue, loans (at most one open loan per book) and webhook endpoints with the
// deliveries made to them.
import type { Knex } from 'knex';

const MS_NOW = "date_trunc('milliseconds', now())";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table books (
      id text primary key,
      account_id text not null references accounts(id),
      title text not null,
      author text not null,
      isbn text,
      created_at timestamptz not null default ${MS_NOW}
    );
    create index books_account on books (account_id, created_at, id);
    create table loans (
      id text primary key,
      account_id text not null references accounts(id),
      book_id text not null references books(id),
      borrower text not null,
      status text not null check (status in ('checked_out', 'overdue', 'returned')),
      due_date date not null,
      returned_at timestamptz,
      created_at timestamptz not null default ${MS_NOW}
    );
    create unique index loans_one_open_per_book on loans (book_id) where status <> 'returned';
    create index loans_account on loans (account_id, created_at, id);
    create table webhook_endpoints (
      id text primary key,
      account_id text not null references accounts(id),
      url text not null,
      events text[] not null,
      api_version date not null,
      created_at timestamptz not null default ${MS_NOW}
    );
    create index webhook_endpoints_account on webhook_endpoints (account_id, created_at, id);
    create table webhook_deliveries (
      event_id text not null references events(id),
      endpoint_id text not null references webhook_endpoints(id),
      status integer,
      delivered_at timestamptz not null default ${MS_NOW},
      primary key (event_id, endpoint_id)
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table webhook_deliveries, webhook_endpoints, loans, books');
}
