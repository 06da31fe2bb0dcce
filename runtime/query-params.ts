// Real clients send arrays as key[]=a&key[]=b or as repeated keys, and an empty value means "not given".
export function normaliseQuery(query: Record<string, string | string[] | undefined>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [rawKey, raw] of Object.entries(query)) {
    const isArray = rawKey.endsWith('[]');
    const key = isArray ? rawKey.slice(0, -2) : rawKey;
    const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => v !== undefined && v !== '');
    if (values.length === 0) continue;
    const existing = out[key];
    const merged = existing === undefined ? values : [...(Array.isArray(existing) ? existing : [existing]), ...values];
    out[key] = isArray || merged.length > 1 ? merged : merged[0];
  }
  return out;
}
