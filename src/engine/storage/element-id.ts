/**
 * Element ids: `4:<database uuid>:<id>` for nodes, `5:<database uuid>:<id>` for relationships.
 */

/** Parses an element id of database `uuid`; null if foreign or malformed. */
export function parseElementId(elementId: string, uuid: string): bigint | null {
  const first = elementId.indexOf(':');
  const last = elementId.lastIndexOf(':');
  if (first !== 1 || last <= first) return null;
  const kind = elementId[0];
  if (kind !== '4' && kind !== '5') return null;
  if (elementId.slice(first + 1, last) !== uuid) return null;
  const digits = elementId.slice(last + 1);
  if (!/^\d{1,19}$/.test(digits)) return null;
  return BigInt(digits);
}
