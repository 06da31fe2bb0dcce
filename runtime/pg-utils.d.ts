// pg's own value conversion for bound parameters (pg/lib/utils.js, exported by pg's package.json as `pg/lib/*`).
declare module 'pg/lib/utils.js' {
  export function prepareValue(value: unknown): unknown;
}
