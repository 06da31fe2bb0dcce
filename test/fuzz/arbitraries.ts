// fast-check arbitraries for hostile request bodies and query strings.
import fc from 'fast-check';

/** Strings a database or a parser may choke on. */
export const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\u202e', '💥', 'null', 'true', '0', '-1', '1e400',
    '%', '%00', '%zz', "'; drop table accounts; --", '\\', '"', '\n', '<script>', 'ðŸ’¥', '\uFEFF', 'biz_', 'biz_x'.repeat(20)),
);

/** Numbers past what doubles, integers and columns hold, written as raw JSON. */
export const hugeNumberText = fc.constantFrom(
  '1e400', '-1e400', '123456789012345678901234567890', '9007199254740993', '-0', '0.0000000000000000000001',
  '1.7976931348623157e308', '2147483648', '-2147483649', '1E+2', '12e-400',
);

/** A JSON value nested `depth` levels deep, as raw text. */
export const deepText = fc.tuple(fc.integer({ min: 10, max: 3000 }), fc.boolean(), fc.constantFrom('metadata', 'business_address', 'title', 'x'))
  .map(([depth, arrays, field]) => {
    const open = arrays ? '['.repeat(depth) : '{"a":'.repeat(depth);
    const close = arrays ? ']'.repeat(depth) : '}'.repeat(depth);
    return `{"${field}":${open}1${close}}`;
  });

/** Wrong (or right) types for the fields the account operations know. */
export const KNOWN_BODY_FIELDS = ['title', 'email', 'logo_url', 'country', 'metadata', 'send_customer_emails', 'three_d_secure_policy',
  'tax_remitted_by', 'tax_type', 'product_tax_code_id', 'business_address', 'tax_identifiers', 'affiliate_code', 'blueprint_id'];

const anyJson = fc.jsonValue({ maxDepth: 4 });
const fieldValue = fc.oneof(anyJson, nastyString, fc.dictionary(nastyString, fc.oneof(nastyString, anyJson), { maxKeys: 4 }),
  fc.record({ line1: nastyString, city: nastyString, postal_code: nastyString, country: nastyString }, { requiredKeys: [] }),
  fc.array(fc.record({ type: nastyString, value: anyJson }, { requiredKeys: [] }), { maxLength: 12 }));

export const knownFieldsBody = fc.dictionary(fc.constantFrom(...KNOWN_BODY_FIELDS), fieldValue, { maxKeys: 5 })
  .map((o) => JSON.stringify(o));

/** Raw request body text: mostly JSON, some of it malformed. */
export const bodyText = fc.oneof(
  { weight: 3, arbitrary: knownFieldsBody },
  { weight: 2, arbitrary: anyJson.map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: nastyString },
  { weight: 1, arbitrary: deepText },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...KNOWN_BODY_FIELDS), hugeNumberText).map(([k, n]) => `{"${k}":${n}}`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('metadata', 'tax_identifiers'), hugeNumberText).map(([k, n]) => k === 'metadata' ? `{"metadata":{"n":${n}}}` : `{"tax_identifiers":[{"type":"x","value":${n}}]}`) },
  { weight: 1, arbitrary: knownFieldsBody.map((s) => s.slice(0, Math.max(0, s.length - 1))) },
);

export const contentType = fc.constantFrom('application/json', 'application/json', 'application/json', 'application/json; charset=utf-8',
  'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', '');

/** Lone surrogates cannot be percent-encoded (encodeURIComponent throws); a client would send U+FFFD. */
export const wellFormed = (s: string) => s.replace(/\p{Cs}/gu, '\uFFFD');
const encodeRaw = (s: string) => s.replace(/[#&=\s]/g, '');
const queryPart = (s: string, raw: boolean) => (raw ? encodeRaw(s) : encodeURIComponent(wellFormed(s)));

/** Query-string keys: the list operation's own, page parameters, and anything else, sometimes with []. */
const LIST_KEYS = ['first', 'after', 'last', 'before', 'order', 'direction', 'status', 'query', 'created_after', 'created_before',
  'volume_min', 'volume_max', 'parent_account_id'];
const queryKey = fc.tuple(fc.oneof(fc.constantFrom(...LIST_KEYS), nastyString), fc.boolean())
  .map(([k, bracket]) => (bracket ? `${k}[]` : k));
const queryValue = fc.oneof(nastyString, hugeNumberText, fc.integer().map(String), fc.constantFrom('', 'asc', 'desc', 'volume',
  'created_at', 'active', '2026-01-01T00:00:00Z', 'not-a-date', 'eyJ4IjoxfQ', 'W10', 'WyJ4IiwieSJd', 'WzEsMl0'));

export const queryString = fc.array(fc.tuple(queryKey, queryValue, fc.boolean()), { maxLength: 6 })
  .map((pairs) => pairs.map(([k, v, raw]) => `${queryPart(k, raw)}=${queryPart(v, raw)}`).join('&'));

/** Path segments for an id: real-looking, random, percent-encoded junk. */
export const idSegment = fc.oneof(nastyString.map((s) => encodeURIComponent(wellFormed(s)) || 'x'),
  fc.constantFrom('biz_', 'biz_' + 'A'.repeat(200), '%', '%zz', '%E0%A4%A', '..', '%2e%2e', 'me', 'biz_%00'));
