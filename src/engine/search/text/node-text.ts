/** Extraction of indexable text from node properties. */
import type { CypherMap, CypherValue } from '../../values/types.js';

function textOf(value: CypherValue | undefined): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const parts = value.filter((item): item is string => typeof item === 'string');
    return parts.length > 0 ? parts.join(' ') : null;
  }
  return null;
}

/**
 * The text of a node's string (and list-of-string) properties, joined by newlines.
 * With `keys`, only those properties (in that order); otherwise every property in key order.
 */
export function propertiesText(properties: CypherMap, keys?: readonly string[]): string {
  const parts: string[] = [];
  const chosen = keys ?? [...properties.keys()].sort();
  for (const key of chosen) {
    const text = textOf(properties.get(key));
    if (text !== null && text.length > 0) parts.push(text);
  }
  return parts.join('\n');
}
