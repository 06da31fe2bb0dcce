// Before 2026-08-28 (entry 14) a dispute refunded before any ruling was closed: prevented totals merge into closed.
export function down(summary: any): any {
  const merged = new Map<string, any>();
  for (const t of summary.totals) {
    const status = t.status === 'prevented' ? 'closed' : t.status;
    const key = `${status}\u0000${t.amount.currency}`;
    const seen = merged.get(key);
    if (seen) merged.set(key, { ...seen, count: seen.count + t.count, amount: { ...seen.amount, amount: seen.amount.amount + t.amount.amount } });
    else merged.set(key, { ...t, status });
  }
  summary.totals = [...merged.values()];
  return summary;
}
