// Before 2026-08-28 (entry 17) copy was sent as arrays of plain strings: each becomes { text } (no language, as an
// ad without translations has).
const FIELDS = ['primary_texts', 'headlines', 'descriptions'];
export function up(input: { body: Record<string, any> }): void {
  for (const f of FIELDS) {
    const v = input.body[f];
    if (Array.isArray(v)) input.body[f] = v.map((text: string) => ({ text }));
  }
}
