// Paths that carry a bearer secret (a claim link's code, a 3-D Secure step's token, a receipt's token...) are
// declared where their routes are: `secret: true` on a path parameter in spec/ (operations: OperationDefinition
// secretParams) and `secretParams` on a route outside the API (runtime/app.ts ExtraRoute). Whatever records a
// request's path (the request log line, api logs) writes it through secretPathRedactor, which replaces each declared
// segment with REDACTED. Query strings are never recorded: signed links' signatures and OAuth states live there.

export const REDACTED = '[redacted]';

/** A route's path (Koa style: `/claim/:code`) and the names of its parameters that are secrets. */
export interface SecretRoute {
  path: string;
  secretParams?: readonly string[];
}

interface Pattern {
  /** each segment: a literal, or null for a parameter */
  segments: (string | null)[];
  /** the segment positions to redact */
  secret: Set<number>;
}

function patternOf(route: SecretRoute): Pattern | null {
  if (!route.secretParams?.length) return null;
  const segments = route.path.split('/').map((s) => (s.startsWith(':') ? null : s.toLowerCase()));
  const names = route.path.split('/').map((s) => (s.startsWith(':') ? s.slice(1) : null));
  const secret = new Set<number>();
  for (const name of route.secretParams) {
    const at = names.indexOf(name);
    if (at < 0) throw new Error(`${route.path} declares ${name} secret, but has no such parameter`);
    secret.add(at);
  }
  return { segments, secret };
}

/** The function that writes a requested path (no query) with the declared secret segments replaced. */
export function secretPathRedactor(routes: readonly SecretRoute[]): (path: string) => string {
  const patterns = routes.map(patternOf).filter((p): p is Pattern => p !== null);
  if (patterns.length === 0) return (path) => path;
  return (path) => {
    const parts = path.split('/');
    // One trailing slash matches, as the routers allow it.
    const length = parts.length > 1 && parts[parts.length - 1] === '' ? parts.length - 1 : parts.length;
    for (const p of patterns) {
      // Literals ignoring case: Koa's router matches the routes outside the API so.
      if (p.segments.length !== length || !p.segments.every((s, i) => s === null || s === parts[i].toLowerCase())) continue;
      return parts.map((s, i) => (p.secret.has(i) ? REDACTED : s)).join('/');
    }
    return path;
  };
}
