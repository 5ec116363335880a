/**
 * The statements of a Cypher script export (`graphdb export --format cypher`), written and
 * recognised here. The shape is APOC's `apoc.export.cypher` "unwind batch" optimisation with
 * parameters, as cypher-shell runs it: nodes get a temporary label `__GraphdbImport` and id
 * property `__graphdb_id` backed by a unique constraint; each batch of rows is one `:param rows =>
 * [...]` line followed by an `UNWIND $rows AS row ...` statement (nodes of one label set and key
 * set, or relationships of one type and key set); the last statements remove the temporary label,
 * property and constraint.
 */
import { cypherName } from './cypher-literal.js';

/** The temporary label, id property and constraint of an export. */
export const TEMP_LABEL = '__GraphdbImport';
export const TEMP_KEY = '__graphdb_id';
export const TEMP_CONSTRAINT = '__graphdb_import_id';
/** The parameter every batch statement reads its rows from. */
export const ROWS_PARAM = 'rows';

/** The first statement: the unique constraint relationships find their endpoints by. */
export const CONSTRAINT_STATEMENT = `CREATE CONSTRAINT ${TEMP_CONSTRAINT} IF NOT EXISTS FOR (n:${TEMP_LABEL}) REQUIRE n.${TEMP_KEY} IS UNIQUE`;
/** After the data: removes the temporary label and id property. */
export const CLEANUP_STATEMENT = `MATCH (n:${TEMP_LABEL}) REMOVE n:${TEMP_LABEL}, n.${TEMP_KEY}`;
/** The last statement. */
export const DROP_STATEMENT = `DROP CONSTRAINT ${TEMP_CONSTRAINT}`;

/** A batch statement: what its rows create. */
export type BatchShape =
  | { readonly kind: 'nodes'; readonly labels: readonly string[]; readonly keys: readonly string[] }
  | { readonly kind: 'relationships'; readonly type: string; readonly keys: readonly string[] };

/** The statement creating a batch of nodes; a row is `[id, value of keys[0], ...]`. */
export function nodeBatchStatement(labels: readonly string[], keys: readonly string[]): string {
  const entries = [`${TEMP_KEY}: row[0]`, ...keys.map((k, i) => `${cypherName(k)}: row[${i + 1}]`)];
  return `UNWIND $${ROWS_PARAM} AS row CREATE (n:${[TEMP_LABEL, ...labels].map(cypherName).join(':')} {${entries.join(', ')}})`;
}

/** The statement creating a batch of relationships; a row is `[start id, end id, value of keys[0], ...]`. */
export function relationshipBatchStatement(type: string, keys: readonly string[]): string {
  const properties = keys.length === 0 ? '' : ` {${keys.map((k, i) => `${cypherName(k)}: row[${i + 2}]`).join(', ')}}`;
  return (
    `UNWIND $${ROWS_PARAM} AS row MATCH (a:${TEMP_LABEL} {${TEMP_KEY}: row[0]}), (b:${TEMP_LABEL} {${TEMP_KEY}: row[1]}) ` +
    `CREATE (a)-[:${cypherName(type)}${properties}]->(b)`
  );
}

const NAME = '(?:[A-Za-z_][A-Za-z0-9_]*|`(?:[^`]|``)+`)';
const NODE_BATCH = new RegExp(
  `^UNWIND \\$${ROWS_PARAM} AS row CREATE \\(n:${TEMP_LABEL}((?::${NAME})*) \\{${TEMP_KEY}: row\\[0\\]((?:, ${NAME}: row\\[\\d+\\])*)\\}\\)$`,
);
const RELATIONSHIP_BATCH = new RegExp(
  `^UNWIND \\$${ROWS_PARAM} AS row MATCH \\(a:${TEMP_LABEL} \\{${TEMP_KEY}: row\\[0\\]\\}\\), \\(b:${TEMP_LABEL} \\{${TEMP_KEY}: row\\[1\\]\\}\\) ` +
    `CREATE \\(a\\)-\\[:(${NAME})((?: \\{${NAME}: row\\[\\d+\\](?:, ${NAME}: row\\[\\d+\\])*\\})?)\\]->\\(b\\)$`,
);

function unquote(name: string): string {
  return name.startsWith('`') ? name.slice(1, -1).replace(/``/g, '`') : name;
}

function namesIn(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((m) => unquote(m[1]!));
}

/**
 * The shape of a batch statement exactly as `nodeBatchStatement` / `relationshipBatchStatement`
 * write it, or null for any other text (the recognised shape writes back the same text).
 */
export function batchShapeOf(text: string): BatchShape | null {
  const node = NODE_BATCH.exec(text);
  if (node !== null) {
    const labels = namesIn(node[1]!, new RegExp(`:(${NAME})`, 'g'));
    const keys = namesIn(node[2]!, new RegExp(`, (${NAME}): row`, 'g'));
    return nodeBatchStatement(labels, keys) === text ? { kind: 'nodes', labels, keys } : null;
  }
  const rel = RELATIONSHIP_BATCH.exec(text);
  if (rel !== null) {
    const type = unquote(rel[1]!);
    const keys = namesIn(rel[2]!, new RegExp(`[{ ](${NAME}): row`, 'g'));
    return relationshipBatchStatement(type, keys) === text ? { kind: 'relationships', type, keys } : null;
  }
  return null;
}
