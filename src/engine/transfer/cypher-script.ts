/**
 * Cypher script export (statements that recreate the graph) and import (running a script's
 * statements in one transaction).
 *
 * Export shape (the approach of APOC's `apoc.export.cypher`): every node is created with a
 * temporary label `__GraphdbImport` and property `__graphdb_id` (its id in the source), backed by
 * a unique constraint so relationships find their endpoints by index; the last statements
 * remove the temporary label, property and constraint. Byte arrays have no Cypher literal; such
 * properties are left out and reported in `lossyKeys`.
 */
import type { ReadTransaction } from '../storage/index.js';
import type { CypherMap } from '../values/types.js';
import type { GraphDB } from '../graphdb.js';
import { GraphError } from '../errors/index.js';
import { TokenKind, tokenize } from '../cypher/lexer/index.js';
import { cypherLiteral, cypherName } from './cypher-literal.js';
import type { ExportCounts } from './jsonl.js';
import type { TextOutput } from './output.js';
import { StatementSplitter, type ScriptStatement } from './statements.js';
import type { LineReader } from './line-reader.js';
import type { ImportRowError } from './import-sink.js';

const TEMP_LABEL = '__GraphdbImport';
const TEMP_KEY = '__graphdb_id';
const TEMP_CONSTRAINT = '__graphdb_import_id';

function propertyText(properties: CypherMap, extra: string | null, lossy: Set<string>): string {
  const parts = extra === null ? [] : [extra];
  for (const [key, value] of properties) {
    const literal = cypherLiteral(value);
    if (literal === null) lossy.add(key);
    else parts.push(`${cypherName(key)}: ${literal}`);
  }
  return parts.length === 0 ? '' : ` {${parts.join(', ')}}`;
}

/** Writes a Cypher script recreating the snapshot's nodes and relationships. */
export async function exportCypher(reader: ReadTransaction, out: TextOutput): Promise<ExportCounts & { lossyKeys: string[] }> {
  const lossy = new Set<string>();
  const counts = { nodes: 0, relationships: 0 };
  await out.write(`CREATE CONSTRAINT ${TEMP_CONSTRAINT} IF NOT EXISTS FOR (n:${TEMP_LABEL}) REQUIRE n.${TEMP_KEY} IS UNIQUE;\n`);
  for (const id of reader.allNodeIds()) {
    const node = reader.getNode(id);
    if (node === null) continue;
    const labels = [TEMP_LABEL, ...node.labels].map((l) => `:${cypherName(l)}`).join('');
    await out.write(`CREATE (${labels}${propertyText(node.properties, `${TEMP_KEY}: ${id}`, lossy)});\n`);
    counts.nodes++;
  }
  for (const handle of reader.allRelationships()) {
    const rel = reader.getRelationship(handle.id);
    if (rel === null) continue;
    await out.write(
      `MATCH (a:${TEMP_LABEL} {${TEMP_KEY}: ${rel.startId}}), (b:${TEMP_LABEL} {${TEMP_KEY}: ${rel.endId}}) ` +
        `CREATE (a)-[:${cypherName(rel.type)}${propertyText(rel.properties, null, lossy)}]->(b);\n`,
    );
    counts.relationships++;
  }
  await out.write(`MATCH (n:${TEMP_LABEL}) REMOVE n:${TEMP_LABEL}, n.${TEMP_KEY};\n`);
  await out.write(`DROP CONSTRAINT ${TEMP_CONSTRAINT};\n`);
  return { ...counts, lossyKeys: [...lossy] };
}

const SCHEMA_WORDS = new Set(['INDEX', 'CONSTRAINT']);
const SCHEMA_LEAD = new Set(['CREATE', 'DROP']);
const INDEX_KINDS = new Set(['RANGE', 'TEXT', 'POINT', 'LOOKUP', 'FULLTEXT', 'VECTOR', 'BTREE']);

/** True for CREATE/DROP INDEX/CONSTRAINT statements (decided on the lexer's first tokens). */
export function isSchemaStatement(text: string): boolean {
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

/** Outcome of a script import. */
export interface ScriptImportResult {
  readonly statements: number;
  readonly nodes: number;
  readonly relationships: number;
  readonly properties: number;
  readonly completed: boolean;
  readonly errors: readonly ImportRowError[];
}

/**
 * Runs a script's statements in one transaction on `database` (schema statements, which Neo4j
 * runs in their own transactions, commit the pending data first and then run alone).
 * cypher-shell's `:begin` / `:commit` lines are accepted and ignored (the import is one
 * transaction anyway); other `:` commands stop the import. The first
 * failing statement rolls the open transaction back; errors carry the file line of the failing
 * statement (plus the position inside it).
 */
export async function importCypher(db: GraphDB, database: string, input: LineReader, displayName: string): Promise<ScriptImportResult> {
  const session = db.session({ database });
  const totals = { statements: 0, nodes: 0, relationships: 0, properties: 0 };
  const splitter = new StatementSplitter();
  let tx = await session.beginTransaction();
  const run = async (statement: ScriptStatement): Promise<void> => {
    if (isSchemaStatement(statement.text)) {
      await tx.commit();
      await (await session.run(statement.text)).discard();
      tx = await session.beginTransaction();
    } else {
      const result = await tx.run(statement.text);
      const summary = await result.discard();
      totals.nodes += summary.counters.nodesCreated;
      totals.relationships += summary.counters.relationshipsCreated;
      totals.properties += summary.counters.propertiesSet;
    }
    totals.statements++;
  };
  let current: ScriptStatement | null = null;
  try {
    for await (const { text, line } of input.lines()) {
      if (!splitter.hasPending && text.trimStart().startsWith(':')) {
        const command = text.trim().split(/\s+/)[0]!.toLowerCase();
        if (command === ':begin' || command === ':commit') {
          splitter.push('\n');
          splitter.take();
          continue;
        }
        await tx.rollback();
        return {
          ...totals,
          completed: false,
          errors: [
            {
              file: displayName,
              line,
              message: `Shell command ${command} is not supported in imported scripts (use graphdb shell --file)`,
            },
          ],
        };
      }
      splitter.push(text + '\n');
      for (const statement of splitter.take()) {
        current = statement;
        await run(statement);
      }
    }
    const last = splitter.flush();
    if (last !== null) {
      current = last;
      await run(last);
    }
    await tx.commit();
    return { ...totals, completed: true, errors: [] };
  } catch (error) {
    if (tx.isOpen) await tx.rollback();
    if (!(error instanceof GraphError) || current === null) throw error;
    const line = current.line + (error.position ? error.position.line - 1 : 0);
    const column = error.position ? ` column ${error.position.column}` : '';
    return {
      ...totals,
      completed: false,
      errors: [{ file: displayName, line, message: `${error.code}: ${error.message}${column}` }],
    };
  } finally {
    await session.close();
  }
}
