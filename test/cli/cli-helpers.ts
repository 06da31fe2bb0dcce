// Runs `bin/cli.ts` as a child process on a database cloned from the test template, and a server on the same one.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { createKnex } from '../../runtime/db.js';
import { ensureDatabase, dropDatabase } from '../../runtime/bootstrap.js';
import { randomToken } from '../../runtime/ids.js';
import { startServer, type RunningServer } from '../../runtime/server.js';
import { operations } from '../../generated/routes.js';
import { taskList } from '../../wiring/tasks.js';
import { projectRoot } from '../../runtime/project-root.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliWorld {
  databaseUrl: string;
  db: Knex;
  api: string;
  cli(...args: string[]): Promise<CliRun>;
  get(path: string, secret: string): Promise<{ status: number; body: any }>;
  send(method: string, path: string, secret: string, body: unknown): Promise<{ status: number; body: any }>;
  /** writes the server's buffered api logs, which the CLI then reads */
  flushApiLogs(): Promise<void>;
  close(): Promise<void>;
}

export async function startCliWorld(options: { worker?: boolean } = {}): Promise<CliWorld> {
  const adminUrl = process.env.TEST_ADMIN_URL;
  const template = process.env.TEST_TEMPLATE;
  if (!adminUrl || !template) throw new Error('Run tests with `npm test`: it prepares the database');
  const name = `t_${randomToken(10).toLowerCase()}`;
  const databaseUrl = await ensureDatabase(adminUrl, name, template);
  const db = createKnex(databaseUrl, 3);
  const server: RunningServer = await startServer({ db, databaseUrl, operations, tasks: taskList(db), port: 0, worker: options.worker ?? false });
  const api = `${server.url}/api/v1`;

  const call = async (method: string, path: string, secret: string, body?: unknown) => {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };

  return {
    databaseUrl,
    db,
    api,
    cli: (...args) => runCli(args, { ...process.env, DATABASE_URL: databaseUrl }),
    get: (path, secret) => call('GET', path, secret),
    send: call,
    async flushApiLogs() { await server.apiLogs?.flush(); },
    async close() {
      await server.close();
      await db.destroy();
      await dropDatabase(adminUrl, name);
    },
  };
}

export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'bin/cli.ts'), ...args], {
      cwd: projectRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** The value after `label:` on a line of the CLI's text output. */
export function field(output: string, label: string): string {
  const m = new RegExp(`^\\s*${label}:\\s+(\\S+)`, 'm').exec(output);
  if (!m) throw new Error(`no '${label}' line in:\n${output}`);
  return m[1];
}
