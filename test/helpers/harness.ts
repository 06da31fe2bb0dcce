// A real server on a real database per test file: the database is cloned from the migrated template.
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { createKnex } from '../../runtime/db.js';
import { ensureDatabase, dropDatabase } from '../../runtime/bootstrap.js';
import { randomToken } from '../../runtime/ids.js';
import { startServer, type RunningServer } from '../../runtime/server.js';
import { operations } from '../../generated/routes.js';
import { taskList, schedule } from '../../wiring/tasks.js';
import { extraRoutes, mounts } from '../../wiring/routes.js';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | (string | number)[] | undefined>;
  version?: string;
  idempotencyKey?: string;
}

export interface TestApp {
  url: string;
  /** the test database's connection string, for another process */
  databaseUrl: string;
  db: Knex;
  server: RunningServer;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export function queryString(query: RequestOptions['query']): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) parts.push(`${encodeURIComponent(k)}[]=${encodeURIComponent(String(item))}`);
    else parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** `logger`: where the server logs (tests otherwise log at LOG_LEVEL, silent under `npm test`). */
export async function startTestApp(options: { worker?: boolean; logger?: Logger } = {}): Promise<TestApp> {
  const adminUrl = process.env.TEST_ADMIN_URL;
  const template = process.env.TEST_TEMPLATE;
  if (!adminUrl || !template) throw new Error('Run tests with `npm test`: it prepares the database');
  const name = `t_${randomToken(10).toLowerCase()}`;
  const url = await ensureDatabase(adminUrl, name, template);
  const db = createKnex(url, 5);
  const server = await startServer({ db, databaseUrl: url, operations, tasks: taskList(db), schedule, extraRoutes, mounts, port: 0, worker: options.worker ?? false,
    logger: options.logger });
  const base = `${server.url}/api/v1`;
  return {
    url: base,
    databaseUrl: url,
    db,
    server,
    async request(method, path, o = {}) {
      const headers: Record<string, string> = { accept: 'application/json', ...(o.headers ?? {}) };
      if (o.token) headers.authorization = o.token.startsWith('sk_') || o.token.startsWith('utok_') ? `Bearer ${o.token}` : o.token;
      if (o.version) headers['api-version-date'] = o.version;
      if (o.idempotencyKey) headers['idempotency-key'] = o.idempotencyKey;
      let body: string | undefined = o.rawBody;
      if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${base}${path}${queryString(o.query)}`, { method, headers, body });
      const text = await res.text();
      const json = res.headers.get('content-type')?.includes('application/json') && text ? JSON.parse(text) : text;
      return { status: res.status, headers: res.headers, body: json };
    },
    async close() {
      await server.close();
      await db.destroy();
      await dropDatabase(adminUrl, name);
    },
  };
}
