/** Small cli-table3 helpers for command summaries. */
import Table from 'cli-table3';

/** A two-column key/value table. */
export function keyValueTable(rows: readonly (readonly [string, string | number | bigint])[]): string {
  const table = new Table({ style: { head: [], border: [] } });
  for (const [k, v] of rows) table.push({ [k]: String(v) });
  return table.toString();
}

/** A table with a header row. */
export function gridTable(head: readonly string[], rows: readonly (readonly (string | number | bigint | null)[])[]): string {
  const table = new Table({ head: [...head], style: { head: [], border: [] } });
  for (const row of rows) table.push(row.map((c) => (c === null ? '' : String(c))));
  return table.toString();
}

/** JSON with bigints as strings. */
export function toJsonSafe<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
}
