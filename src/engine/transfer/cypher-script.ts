/**
 * Cypher script export: statements that recreate the graph, in the shape of
 * `cypher-script-shape.ts` (APOC's unwind-batch form with `:param` rows, in `:begin`/`:commit`
 * blocks, as cypher-shell runs it). Byte arrays have no Cypher literal; such properties are left
 * out and reported in `lossyKeys`. The importer is `cypher-script-import.ts`.
 */
import type { ReadTransaction } from '../storage/index.js';
import type { CypherMap } from '../values/types.js';
import { TokenKind, tokenize } from '../cypher/lexer/index.js';
import { cypherLiteral } from './cypher-literal.js';
import type { ExportCounts } from './jsonl.js';
import type { TextOutput } from './output.js';
import { withoutLeadingComments } from './statements.js';
import {
  CLEANUP_STATEMENT,
  CONSTRAINT_STATEMENT,
  DROP_STATEMENT,
  ROWS_PARAM,
  nodeBatchStatement,
  relationshipBatchStatement,
} from './cypher-script-shape.js';

/** Rows per `:param` batch (one transaction each when cypher-shell or the importer's statement path runs it). */
export const SCRIPT_BATCH_ROWS = 1000;

/** Collects consecutive rows of one shape and writes them as one batch. */
class BatchWriter {
  private shape = '';
  private statement = '';
  private rows: string[] = [];

  constructor(private readonly out: TextOutput) {}

  /** Adds a row (its literal) of the batch statement `statement`; `shape` identifies the statement. */
  async add(shape: string, statement: () => string, row: string): Promise<void> {
    if (shape !== this.shape || this.rows.length >= SCRIPT_BATCH_ROWS) {
      await this.flush();
      this.shape = shape;
      this.statement = statement();
    }
    this.rows.push(row);
  }

  async flush(): Promise<void> {
    if (this.rows.length === 0) return;
    await this.out.write(`:param ${ROWS_PARAM} => [${this.rows.join(', ')}]\n:begin\n${this.statement};\n:commit\n`);
    this.rows = [];
  }
}

/** The keys and the row literal of an entity's properties (byte arrays left out and noted in `lossy`). */
function rowOf(lead: string, properties: CypherMap, lossy: Set<string>): { keys: string[]; row: string } {
  const keys: string[] = [];
  const values = [lead];
  for (const [key, value] of properties) {
    const literal = cypherLiteral(value);
    if (literal === null) lossy.add(key);
    else {
      keys.push(key);
      values.push(literal);
    }
  }
  return { keys, row: `[${values.join(', ')}]` };
}

/** Writes a Cypher script recreating the snapshot's nodes and relationships. */
export async function exportCypher(reader: ReadTransaction, out: TextOutput): Promise<ExportCounts & { lossyKeys: string[] }> {
  const lossy = new Set<string>();
  const counts = { nodes: 0, relationships: 0 };
  await out.write(`// graphdb Cypher script export: run it with graphdb import or cypher-shell\n${CONSTRAINT_STATEMENT};\n`);
  const batches = new BatchWriter(out);
  for (const id of reader.allNodeIds()) {
    const node = reader.getNode(id);
    if (node === null) continue;
    const { keys, row } = rowOf(String(id), node.properties, lossy);
    await batches.add(JSON.stringify(['n', node.labels, keys]), () => nodeBatchStatement(node.labels, keys), row);
    counts.nodes++;
  }
  for (const handle of reader.allRelationships()) {
    const rel = reader.getRelationship(handle.id);
    if (rel === null) continue;
    const { keys, row } = rowOf(`${rel.startId}, ${rel.endId}`, rel.properties, lossy);
    await batches.add(JSON.stringify(['r', rel.type, keys]), () => relationshipBatchStatement(rel.type, keys), row);
    counts.relationships++;
  }
  await batches.flush();
  await out.write(`:begin\n${CLEANUP_STATEMENT};\n:commit\n${DROP_STATEMENT};\n`);
  return { ...counts, lossyKeys: [...lossy] };
}

const SCHEMA_WORDS = new Set(['INDEX', 'CONSTRAINT']);
const SCHEMA_LEAD = new Set(['CREATE', 'DROP']);
const INDEX_KINDS = new Set(['RANGE', 'TEXT', 'POINT', 'LOOKUP', 'FULLTEXT', 'VECTOR', 'BTREE']);

/** True for CREATE/DROP INDEX/CONSTRAINT statements (decided on the lexer's first tokens). */
export function isSchemaStatement(text: string): boolean {
  const rest = withoutLeadingComments(text);
  if (!/^(?:CREATE|DROP)\s+[A-Za-z]/i.test(rest)) return false;
  let tokens;
  try {
    tokens = tokenize(text);
  } catch {
    return false;
  }
  const words = tokens
    .slice(1, 6)
    .map((t) => (t.kind === TokenKind.Name ? t.value.toUpperCase() : ''))
    .filter((w, i) => !(i > 0 && (w === 'OR' || w === 'REPLACE')));
  if (!SCHEMA_LEAD.has(words[0]!)) return false;
  return SCHEMA_WORDS.has(words[1]!) || (INDEX_KINDS.has(words[1]!) && words[2] === 'INDEX');
}
