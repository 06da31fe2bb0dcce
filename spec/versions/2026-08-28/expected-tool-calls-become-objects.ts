// Before 2026-08-28 (entry 19) a recommendation's expected_tool_calls were the tool names alone.
export function down(rec: any): any {
  if (Array.isArray(rec.expected_tool_calls)) {
    rec.expected_tool_calls = rec.expected_tool_calls.map((c: { tool_name?: string }) => c.tool_name);
  }
  return rec;
}
