// Before 2026-08-28 (entry 17) an ad's copy was arrays of plain strings: each entry's text.
const FIELDS = ['primary_texts', 'headlines', 'descriptions'];
export function down(ad: any): any {
  for (const f of FIELDS) if (Array.isArray(ad[f])) ad[f] = ad[f].map((e: { text: string }) => e.text);
  return ad;
}
