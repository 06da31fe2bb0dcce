// A prepared statement's columns, learnt once per connection. pg sends Describe with every execution of a named
// statement, and PostgreSQL answers each with the same RowDescription: a prepared statement's result columns are
// fixed when it is parsed (a later change to them fails its execution with "cached plan must not change result
// type" instead). After a statement's first execution on a connection it is sent as Bind, Execute and Sync only, and
// its rows are read with the columns kept from that first answer: no description to write, send and parse, ~50
// columns of it for the payment a POST /payments inserts and returns (measured by `npm run bench`).
/// <reference path="./pg-utils.d.ts" />
import pg from 'pg';
import { prepareValue } from 'pg/lib/utils.js';

interface Field { name: string; dataTypeID: number; format?: string }

/** pg's connection as pg's Query.prepare uses it (pg/lib/connection.js). */
interface Connection {
  bind(config: object): void;
  close(config: object): void;
  sync(): void;
}

/** pg's Query as far as this file uses it (pg/lib/query.js). */
interface QueryInternals {
  name?: string;
  portal: string;
  values?: unknown[];
  binary?: boolean;
  rows?: number;
  _result: { fields: Field[]; addFields(fields: Field[]): void };
  _accumulateRows?: boolean;
  hasBeenParsed(connection: Connection): boolean;
  prepare(connection: Connection): void;
  handleError(err: unknown, connection: Connection): void;
  _getRows(connection: Connection, rows?: number): void;
}

const DESCRIBED = Symbol('described statements');
type Client = { [DESCRIBED]?: Map<string, Field[]> };

const QueryClass = pg.Query as unknown as new (...args: unknown[]) => QueryInternals;

/** A named statement whose columns are known on its connection: pg's prepare (pg/lib/query.js) without Describe. */
class DescribedQuery extends QueryClass {
  known: Field[] = [];

  override prepare(connection: Connection): void {
    // What pg's handleRowDescription does with the description it no longer receives; here, once the client has
    // given the result its type parsers (pg/lib/client.js query).
    this._result.addFields(this.known);
    this._accumulateRows = true;
    // Parsed on this connection, as its columns were learnt there; else pg's own prepare, Describe included.
    if (!this.hasBeenParsed(connection)) {
      super.prepare(connection);
      return;
    }
    try {
      connection.bind({ portal: this.portal, statement: this.name, values: this.values, binary: this.binary, valueMapper: prepareValue });
    } catch (err) {
      connection.close({ type: 'S', name: this.name });
      connection.sync();
      this.handleError(err, connection);
      return;
    }
    this._getRows(connection, this.rows);
  }
}

/**
 * A pg Query for `text` on `client`, answered by `done`. Named: executed without Describe once `client` has
 * answered it with a description, which is then learnt from its first success.
 */
export function namedQuery(client: object, name: string, text: string, values: unknown[],
  done: (err: Error | undefined, result: { rows: unknown[] }) => void): pg.Query {
  const described = ((client as Client)[DESCRIBED] ??= new Map());
  const fields = described.get(name);
  if (fields) {
    const statement = new DescribedQuery(text, values, done);
    statement.name = name;
    statement.known = fields;
    return statement as unknown as pg.Query;
  }
  const statement = new pg.Query(text, values, (err: Error | undefined, result: { rows: unknown[] }) => {
    // A single result (a named statement is one statement): its columns, as described, for the next execution.
    if (!err) described.set(name, (statement as unknown as QueryInternals)._result.fields);
    done(err, result);
  }) as pg.Query & { name?: string };
  statement.name = name;
  return statement;
}
