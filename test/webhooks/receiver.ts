// A webhook receiver on loopback that verifies Standard Webhooks signatures, as an integrator's server would.
import { createServer, type Server } from 'node:http';
import type { Test } from 'uvu';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { until as poll } from '../helpers/poll.js';
import { verify } from '../../handlers/webhooks/delivery/signature.js';

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  json: any;
  verified: boolean;
  /** the webhook-version header: the version the payload is rendered at */
  version?: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** what to answer next: a status, and a delay before answering (and headers, such as Retry-After) */
  respond: { status: number; delayMs: number; headers?: Record<string, string> };
  secret: string;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const state = { respond: { status: 200, delayMs: 0 } as Receiver['respond'], secret: '', received: [] as Received[] };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        id: String(req.headers['webhook-id']), timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
      };
      state.received.push({ ...headers, body, json: JSON.parse(body), verified: verify(state.secret, headers, body),
        version: req.headers['webhook-version'] as string | undefined });
      const { status, delayMs, headers: answerHeaders } = state.respond;
      setTimeout(() => res.writeHead(status, answerHeaders).end(), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/hook`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  });
}

export const until = <T>(probe: () => T | Promise<T>, what: string, timeoutMs = 15_000) =>
  poll(probe, what, { timeoutMs, everyMs: 50 });

/** A suite's test app and one receiver, started before its tests and closed after them; `use` is handed both. */
export function withAppAndReceiver(t: Test, use: (app: TestApp, receiver: Receiver) => void): void {
  let app: TestApp;
  let receiver: Receiver;
  t.before(async () => {
    app = await startTestApp();
    receiver = await startReceiver();
    use(app, receiver);
  });
  t.after(async () => {
    await receiver.close();
    await app.close();
  });
}
