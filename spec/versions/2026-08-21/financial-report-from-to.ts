// Before 2026-08-21 (entry 35) a report's window was two UTC dates, both inclusive: from_date is the day `from`
// falls on, to_date the day of the window's last instant (to is exclusive).
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function down(report: any): any {
  const { from, to, ...rest } = report;
  return { ...rest, from_date: utcDay(Date.parse(from)), to_date: utcDay(Date.parse(to) - 1) };
}
