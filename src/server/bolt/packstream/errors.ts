/**
 * Malformed bytes on the wire: truncated values, unknown markers, sizes beyond the message,
 * nesting deeper than allowed. The connection answers with a protocol failure and closes.
 */
export class PackStreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PackStreamError';
  }
}
