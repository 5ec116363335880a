/**
 * Named FULLTEXT indexes (Neo4j's `CREATE FULLTEXT INDEX name FOR (n:A|B) ON EACH [n.x, n.y]`):
 * a node is indexed when it carries one of the labels and one of the properties holds text.
 */
import type { NodeRecord } from '../../storage/graph-store.js';
import type { TextHit } from './hits.js';
import { propertiesText } from './node-text.js';
import { parseTextQuery } from './query-parser.js';
import { createTextIndex, type TextIndex } from './text-index.js';

/** What a FULLTEXT index covers. */
export interface FulltextIndexDefinition {
  readonly name: string;
  readonly labels: readonly string[];
  readonly properties: readonly string[];
}

/** One named full-text index and its postings. */
export class FulltextIndex {
  readonly index: TextIndex;

  constructor(
    readonly definition: FulltextIndexDefinition,
    engine: 'v1' | 'v2' = 'v2',
  ) {
    this.index = createTextIndex(engine);
  }

  /** True when the node's labels put it in scope of this index. */
  covers(labels: readonly string[]): boolean {
    return labels.some((label) => this.definition.labels.includes(label));
  }

  /** Brings the index in line with a node's committed state. */
  applyNode(node: NodeRecord): void {
    if (!this.covers(node.labels)) {
      this.index.remove(node.id);
      return;
    }
    this.index.upsert(node.id, propertiesText(node.properties, this.definition.properties));
  }

  /** Estimated heap bytes of the postings (`dbms.memory.search_index.max_size` counts them). */
  estimatedBytes(): number {
    return this.index.estimatedBytes();
  }

  /** Forgets a deleted node. */
  removeNode(nodeId: bigint): void {
    this.index.remove(nodeId);
  }

  /** `db.index.fulltext.queryNodes(name, query)`: hits in score order. */
  query(queryText: string, limit = Number.MAX_SAFE_INTEGER): TextHit[] {
    return this.index.search(parseTextQuery(queryText), limit);
  }
}
