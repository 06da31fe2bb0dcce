// Polling for what another process or a background job does: the probe's first truthy value, or a timeout naming
// what was awaited.
export async function until<T>(
  probe: () => T | Promise<T>,
  what: string,
  { timeoutMs = 10_000, everyMs = 25 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<NonNullable<T>> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
