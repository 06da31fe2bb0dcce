// The answer every fuzzed request must get: never a 5xx, and on a 4xx the JSON error envelope naming this request,
// with no stack trace. Shared by the fuzz tests; throws an Error describing the exchange.

export interface Sent {
  method: string;
  url: string;
  contentType?: string;
  body?: string | Buffer;
  /** how the request came about, for the failure message */
  label?: string;
}

export interface Answer {
  status: number;
  text: string;
  headers: Headers;
}

const shown = (body: Sent['body']) => (Buffer.isBuffer(body) ? `<${body.length} bytes>` : JSON.stringify(body ?? '').slice(0, 300));

export function describeExchange(req: Sent, res: Answer): string {
  return `${req.label ? `[${req.label}] ` : ''}${req.method} ${req.url.slice(0, 300)} [${req.contentType ?? ''}] ${shown(req.body)} -> ${res.status} ${res.text.slice(0, 300)}`;
}

/** Below 500, and a well-formed envelope for every 4xx. */
export function checkAnswer(req: Sent, res: Answer): void {
  const what = () => describeExchange(req, res);
  if (res.status >= 500) throw new Error(`server error: ${what()}`);
  if (res.status < 400) return;
  if (!(res.headers.get('content-type') ?? '').includes('application/json')) throw new Error(`4xx without JSON: ${what()}`);
  const body = JSON.parse(res.text);
  const e = body?.error;
  if (typeof e?.type !== 'string' || typeof e.message !== 'string' || !e.message) throw new Error(`not the envelope: ${what()}`);
  if (e.request_id !== res.headers.get('request-id')) throw new Error(`request_id differs from the header: ${what()}`);
  if (e.param !== undefined && typeof e.param !== 'string') throw new Error(`param is not a string: ${what()}`);
  if (/\n\s+at |node_modules|\.ts:\d+/.test(res.text)) throw new Error(`stack trace leaked: ${what()}`);
}

/** Sends the request with these headers and checks the answer. */
export async function sendChecked(req: Sent, headers: Record<string, string>): Promise<Answer> {
  const all: Record<string, string> = { accept: 'application/json', ...headers };
  if (req.contentType) all['content-type'] = req.contentType;
  const body = Buffer.isBuffer(req.body) ? new Uint8Array(req.body) : req.body;
  const res = await fetch(req.url, { method: req.method, headers: all, body, signal: AbortSignal.timeout(30_000) });
  const answer = { status: res.status, text: await res.text(), headers: res.headers };
  checkAnswer(req, answer);
  return answer;
}
