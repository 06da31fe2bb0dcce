// Reading an uploaded customer list: RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF), the first record
// being the header. Enough for the lists the network takes (at most 10 MiB), without a parser dependency.

/** Every record of the text, each an array of its fields. A quote left open is an error. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a byte order mark is not data
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') { record.push(field); field = ''; } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field); field = '';
      if (record.length > 1 || record[0] !== '') records.push(record); // blank lines are skipped
      record = [];
    } else field += c;
  }
  if (quoted) throw new Error('a quoted field is not closed');
  record.push(field);
  if (record.length > 1 || record[0] !== '') records.push(record);
  return records;
}
