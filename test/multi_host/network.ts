// A small network of "hosts" on this machine: one network namespace per host, each with a veth whose other end is on
// a bridge of the root namespace, all on one free /24 (10.77.<n>.0/24; the root side is .1, the hosts .2 on). Every
// name carries the owning test process's pid (mh-<pid>-<host>, bridge mhb<pid>, veths mh<pid><letter>), so that a
// later run can tell a crashed run's leftovers (their pid is gone) from another run's live network, and remove them.
import { execFileSync, spawnSync } from 'node:child_process';

const run = (args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
const tryRun = (args: string[]) => spawnSync('ip', args, { stdio: 'ignore' }).status === 0;

/** Why namespaces cannot be made here (not root, no `ip`, no netns support), or null when they can. */
export function namespacesUnavailable(): string | null {
  if (process.platform !== 'linux') return `network namespaces are Linux only (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'network namespaces need root (this test runs as uid ' + process.getuid?.() + ')';
  const version = spawnSync('ip', ['-V'], { stdio: 'ignore' });
  if (version.error || version.status !== 0) return 'no `ip` command (iproute2) on this machine';
  const probe = `mh-${process.pid}-probe`;
  const added = spawnSync('ip', ['netns', 'add', probe], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (added.status !== 0) return `\`ip netns add\` failed: ${added.stderr.toString().trim() || `exit ${added.status}`}`;
  tryRun(['netns', 'del', probe]);
  return null;
}

/** Whether the process runs (another user's counts): a run whose process is gone left its leftovers. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** SIGKILLs every process inside the namespace (a host dying), and waits until none is left. */
export function killNamespaceProcesses(namespace: string): void {
  for (let round = 0; round < 50; round++) {
    const pids = spawnSync('ip', ['netns', 'pids', namespace]).stdout?.toString().split(/\s+/).filter(Boolean).map(Number) ?? [];
    if (!pids.length) return;
    for (const pid of pids) {
      try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
    }
    execFileSync('sleep', ['0.05']);
  }
}

function removeNamespace(namespace: string): void {
  killNamespaceProcesses(namespace);
  tryRun(['netns', 'del', namespace]); // takes its end of the veth with it, and so the pair
}

/** Removes the namespaces, bridges and veths of earlier runs whose process is gone (a crash, a kill). */
export function removeLeftovers(): string[] {
  const removed: string[] = [];
  const ownerGone = (name: string, pattern: RegExp) => {
    const m = pattern.exec(name);
    return m !== null && Number(m[1]) !== process.pid && !processAlive(Number(m[1]));
  };
  for (const line of run(['netns', 'list']).split('\n')) {
    const name = line.split(' ')[0];
    if (name && ownerGone(name, /^mh-(\d+)-/)) {
      removeNamespace(name);
      removed.push(name);
    }
  }
  for (const line of run(['-o', 'link', 'show']).split('\n')) {
    const name = /^\d+:\s+([^:@\s]+)/.exec(line)?.[1];
    if (name && (ownerGone(name, /^mhb(\d+)$/) || ownerGone(name, /^mh(\d+)[a-z]$/))) {
      tryRun(['link', 'del', name]);
      removed.push(name);
    }
  }
  return removed;
}

/** A 10.77.<n>.0/24 no interface of this machine is on, looked for from one the pid picks, so that two runs
 * starting together are unlikely to pick the same. */
function freeSubnet(): string {
  const used = run(['-o', '-4', 'addr', 'show']);
  for (let i = 0; i < 255; i++) {
    const n = (process.pid + i) % 255;
    if (!used.includes(` 10.77.${n}.`)) return `10.77.${n}`;
  }
  throw new Error('no free 10.77.<n>.0/24 subnet');
}

export interface Host {
  name: string;
  namespace: string;
  address: string;
  /** its veth's end in the root namespace, on the bridge */
  veth: string;
}

export interface HostNetwork {
  /** the root namespace's address on the bridge: where the hosts reach PostgreSQL and Redis */
  gateway: string;
  bridge: string;
  hosts: Map<string, Host>;
  /** Removes the hosts (their processes first), their veths and the bridge; safe to call twice, and from an exit handler. */
  remove(): void;
  /** remove(), after letting the killed processes' connections close (this process's forwards answer them): a
   * connection left half-closed keeps its namespace alive, unnamed, until TCP gives up on it. */
  shutdown(): Promise<void>;
}

/** Makes one namespace per name, each with an address on a new bridge, the root namespace reaching them all. */
export function makeHostNetwork(names: string[]): HostNetwork {
  const subnet = freeSubnet();
  const bridge = `mhb${process.pid}`;
  const hosts = new Map<string, Host>();
  let removed = false;
  const network: HostNetwork = {
    gateway: `${subnet}.1`, bridge, hosts,
    remove() {
      if (removed) return;
      removed = true;
      for (const host of hosts.values()) {
        removeNamespace(host.namespace);
        // Deleting one end deletes the pair, even if the namespace lingers.
        tryRun(['link', 'del', host.veth]);
      }
      tryRun(['link', 'del', bridge]);
    },
    async shutdown() {
      if (removed) return;
      for (const host of hosts.values()) killNamespaceProcesses(host.namespace);
      await new Promise((r) => setTimeout(r, 300));
      network.remove();
    },
  };
  try {
    run(['link', 'add', bridge, 'type', 'bridge']);
    run(['addr', 'add', `${network.gateway}/24`, 'dev', bridge]);
    run(['link', 'set', bridge, 'up']);
    names.forEach((name, i) => {
      const namespace = `mh-${process.pid}-${name}`;
      const veth = `mh${process.pid}${String.fromCharCode(97 + i)}`;
      const host = { name, namespace, address: `${subnet}.${i + 2}`, veth };
      run(['netns', 'add', namespace]);
      hosts.set(name, host);
      run(['link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', namespace]);
      run(['link', 'set', veth, 'master', bridge, 'up']);
      run(['-n', namespace, 'addr', 'add', `${host.address}/24`, 'dev', 'eth0']);
      run(['-n', namespace, 'link', 'set', 'eth0', 'up']);
      run(['-n', namespace, 'link', 'set', 'lo', 'up']);
    });
  } catch (e) {
    network.remove();
    const stderr = (e as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`the hosts' network could not be made: ${stderr || (e as Error).message}`);
  }
  return network;
}
