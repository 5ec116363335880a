/**
 * Search procedures as in Neo4j 5, answered by the engine's search services:
 * `db.index.fulltext.queryNodes(indexName, queryString, options = {})` and
 * `db.index.vector.queryNodes(indexName, numberOfNearestNeighbours, query)`, both
 * `YIELD node, score`, best first. Hits come from committed state; a node the calling
 * transaction cannot see (deleted in it, or committed after its snapshot) is left out.
 */
import { ArgumentError } from '../../errors/index.js';
import type { GraphReader } from '../../storage/graph-store.js';
import { NodeRef, type CypherValue } from '../../values/types.js';
import type { ProcedureContext, ProcedureDefinition } from './registry.js';

/** One hit of a named index. */
export interface IndexHit {
  readonly nodeId: bigint;
  readonly score: number;
}

/** What the procedures need from the search services. */
export interface SearchProcedureBackend {
  /** Lucene-syntax query of the FULLTEXT index `name` (ProcedureCallFailed when there is none). */
  queryFulltext(database: string, catalog: GraphReader, name: string, query: string, limit: number | undefined): readonly IndexHit[];
  /** The `k` nearest neighbours in the VECTOR index `name`. */
  queryVectorIndex(database: string, catalog: GraphReader, name: string, k: number, vector: readonly number[]): readonly IndexHit[];
}

const OUTPUTS = [
  { name: 'node', type: 'NODE' },
  { name: 'score', type: 'FLOAT' },
];

function nonNegativeInteger(options: ReadonlyMap<string, CypherValue>, key: string): number | undefined {
  const value = options.get(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'bigint' || value < 0n) throw new ArgumentError(`Fulltext query option '${key}' must be a non-negative integer`);
  return Number(value);
}

function visibleRows(hits: readonly IndexHit[], ctx: ProcedureContext): CypherValue[][] {
  return hits.filter((hit) => ctx.reader.nodeExists(hit.nodeId)).map((hit) => [new NodeRef(hit.nodeId), hit.score]);
}

function queryVector(value: CypherValue): number[] {
  if (!Array.isArray(value)) throw new ArgumentError('Index query vector must be a LIST<FLOAT>');
  return value.map((item: CypherValue) => {
    if (typeof item === 'number') return item;
    if (typeof item === 'bigint') return Number(item);
    throw new ArgumentError('Index query vector must be a LIST<FLOAT> without nulls');
  });
}

/** The search procedures over `backend`. */
export function searchProcedures(backend: SearchProcedureBackend): ProcedureDefinition[] {
  return [
    {
      name: 'db.index.fulltext.queryNodes',
      inputs: [
        { name: 'indexName', type: 'STRING' },
        { name: 'queryString', type: 'STRING' },
        { name: 'options', type: 'MAP', default: new Map() },
      ],
      outputs: OUTPUTS,
      mode: 'READ',
      description:
        "Query the given full-text index. Returns the matching nodes and their Lucene query score, ordered by score. Valid keys for the options map are: 'skip', 'limit'.",
      call(args, ctx) {
        const [name, query, options] = args as [string | null, string | null, ReadonlyMap<string, CypherValue> | null];
        if (name === null || query === null) throw new ArgumentError('db.index.fulltext.queryNodes needs an index name and a query string');
        const skip = options === null ? undefined : nonNegativeInteger(options, 'skip');
        const limit = options === null ? undefined : nonNegativeInteger(options, 'limit');
        const wanted = limit === undefined ? undefined : (skip ?? 0) + limit;
        const rows = visibleRows(backend.queryFulltext(ctx.databaseName, ctx.reader, name, query, wanted), ctx);
        return rows.slice(skip ?? 0, limit === undefined ? undefined : (skip ?? 0) + limit);
      },
    },
    {
      name: 'db.index.vector.queryNodes',
      inputs: [
        { name: 'indexName', type: 'STRING' },
        { name: 'numberOfNearestNeighbours', type: 'INTEGER' },
        { name: 'query', type: 'ANY' },
      ],
      outputs: OUTPUTS,
      mode: 'READ',
      description: 'Query the given vector index. Returns requested number of nearest neighbors to the provided query vector, and their similarity score to that query vector, based on the configured similarity function for the index. The similarity score is a value between [0, 1]; where 0 indicates least similar, 1 most similar.',
      call(args, ctx) {
        const [name, k, vector] = args as [string | null, bigint | null, CypherValue];
        if (name === null || k === null) throw new ArgumentError('db.index.vector.queryNodes needs an index name and a number of neighbours');
        return visibleRows(backend.queryVectorIndex(ctx.databaseName, ctx.reader, name, Number(k), queryVector(vector)), ctx);
      },
    },
  ];
}
