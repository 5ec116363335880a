/**
 * Writing CSV fields (RFC 4180 quoting). Reading goes through the shared reader,
 * `files/csv-reader.ts`.
 */

/** Quotes a field when it needs it. */
export function quoteCsv(text: string, delimiter: string): string {
  return text.includes('"') || text.includes(delimiter) || text.includes('\n') || text.includes('\r') || text === ''
    ? `"${text.replace(/"/g, '""')}"`
    : text;
}
