/**
 * The text embedded for a node: optional labels line, then `key: value` lines of its properties,
 * filtered by the include/exclude settings (`GRAPHDB_EMBEDDING_PROPERTIES_INCLUDE/EXCLUDE`,
 * `GRAPHDB_EMBEDDING_INCLUDE_LABELS`). Only text, number and boolean values (and lists of them)
 * are embedded; vectors (lists of numbers longer than 16) are skipped.
 */
import type { CypherValue } from '../../values/types.js';
import type { NodeRecord } from '../../storage/graph-store.js';

/** Which parts of a node become embedding text. */
export interface EmbeddingTextOptions {
  /** When non-empty, only these property keys. */
  readonly propertiesInclude: readonly string[];
  /** Never these keys (applied after include). */
  readonly propertiesExclude: readonly string[];
  readonly includeLabels: boolean;
}

function render(value: CypherValue): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length > 16 && value.every((x) => typeof x === 'number')) return null;
    const parts = value.map(render).filter((x): x is string => x !== null);
    return parts.length > 0 ? parts.join(', ') : null;
  }
  return null;
}

/** Builds the embedding text of a node; empty when nothing qualifies. */
export function embeddingText(node: NodeRecord, options: EmbeddingTextOptions): string {
  const lines: string[] = [];
  if (options.includeLabels && node.labels.length > 0) lines.push(`Labels: ${node.labels.join(', ')}`);
  const keys = [...node.properties.keys()].sort();
  for (const key of keys) {
    if (options.propertiesInclude.length > 0 && !options.propertiesInclude.includes(key)) continue;
    if (options.propertiesExclude.includes(key)) continue;
    const text = render(node.properties.get(key)!);
    if (text !== null && text.length > 0) lines.push(`${key}: ${text}`);
  }
  const hasProperties = lines.length > (options.includeLabels && node.labels.length > 0 ? 1 : 0);
  return hasProperties ? lines.join('\n') : '';
}
