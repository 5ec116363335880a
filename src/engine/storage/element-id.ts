/**
 * Element ids: `4:<database uuid>:<id>` for nodes, `5:<database uuid>:<id>` for relationships.
 */

/** The element id of node `id` of database `uuid`. */
export function nodeElementId(uuid: string, id: bigint): string {
  return `4:${uuid}:${id}`;
}

/** The element id of relationship `id` of database `uuid`. */
export function relationshipElementId(uuid: string, id: bigint): string {
  return `5:${uuid}:${id}`;
}

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
