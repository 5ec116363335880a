/**
 * Search procedures as in Neo4j 5, answered by the engine's search services:
 * `db.index.fulltext.queryNodes` / `queryRelationships(indexName, queryString, options = {})`
 * and `db.index.vector.queryNodes` / `queryRelationships(indexName, numberOfNearestNeighbours,
 * query)`, yielding `node` (or `relationship`) and `score`, best first. Hits come from committed
 * state; an entity the calling transaction cannot see (deleted in it, or committed after its
 * snapshot) is left out. Querying a node index for relationships (or the reverse) is an error,
 * as in Neo4j.
 */
import { ArgumentError } from '../../errors/index.js';
import type { GraphReader } from '../../storage/graph-store.js';
import { CypherVector, NodeRef, RelationshipRef, type CypherValue } from '../../values/types.js';
import type { ProcedureContext, ProcedureDefinition } from './registry.js';
import { hasUncommittedWrites } from '../runtime/execution-context.js';

/** One hit of a named index (`nodeId` is the relationship id for relationship indexes). */
export interface IndexHit {
  readonly nodeId: bigint;
  readonly score: number;
}

/** Which entities an index covers. */
export type IndexEntity = 'NODE' | 'RELATIONSHIP';

/** What the procedures need from the search services. */
export interface SearchProcedureBackend {
  /** Lucene-syntax query of the FULLTEXT index `name` over `entity` (ProcedureCallFailed when there is none). */
  queryFulltext(
    database: string,
    catalog: GraphReader,
    name: string,
    query: string,
    limit: number | undefined,
    entity: IndexEntity,
  ): readonly IndexHit[];
  /** The `k` nearest neighbours in the VECTOR index `name` over `entity`. */
  queryVectorIndex(
    database: string,
    catalog: GraphReader,
    name: string,
    k: number,
    vector: readonly number[],
    entity: IndexEntity,
  ): readonly IndexHit[];
  /**
   * True when the VECTOR index `name` holds exactly the committed state `reader` sees, so every
   * hit is visible to a transaction that has written nothing (optional: absent, hits are checked).
   */
  vectorIndexAtSnapshot?(database: string, reader: GraphReader, name: string): boolean;
}

function nonNegativeInteger(options: ReadonlyMap<string, CypherValue>, key: string): number | undefined {
  const value = options.get(key);
  if (value === undefined || value === null) return undefined;
  // Drivers of languages without integers (JavaScript) send 10 as 10.0; Neo4j reads any number here.
  const integral = typeof value === 'number' && Number.isInteger(value) ? value : typeof value === 'bigint' ? Number(value) : Number.NaN;
  if (!(integral >= 0)) throw new ArgumentError(`Fulltext query option '${key}' must be a non-negative integer`);
  return integral;
}

function visibleRows(hits: readonly IndexHit[], ctx: ProcedureContext, entity: IndexEntity, allVisible = false): CypherValue[][] {
  const rows: CypherValue[][] = [];
  for (const hit of hits) {
    if (entity === 'NODE') {
      if (allVisible || ctx.reader.nodeExists(hit.nodeId)) rows.push([new NodeRef(hit.nodeId), hit.score]);
      continue;
    }
    const relationship = ctx.reader.getRelationship(hit.nodeId);
    if (relationship !== null)
      rows.push([new RelationshipRef(relationship.id, relationship.type, relationship.startId, relationship.endId), hit.score]);
  }
  return rows;
}

function queryVector(value: CypherValue): number[] {
  if (value instanceof CypherVector) return value.toNumbers();
  if (!Array.isArray(value)) throw new ArgumentError('Index query vector must be a LIST<FLOAT>');
  return value.map((item: CypherValue) => {
    if (typeof item === 'number') return item;
    if (typeof item === 'bigint') return Number(item);
    throw new ArgumentError('Index query vector must be a LIST<FLOAT> without nulls');
  });
}

function outputs(entity: IndexEntity) {
  return [
    entity === 'NODE' ? { name: 'node', type: 'NODE' } : { name: 'relationship', type: 'RELATIONSHIP' },
    { name: 'score', type: 'FLOAT' },
  ];
}

function fulltextQuery(backend: SearchProcedureBackend, entity: IndexEntity): ProcedureDefinition {
  const name = entity === 'NODE' ? 'db.index.fulltext.queryNodes' : 'db.index.fulltext.queryRelationships';
  return {
    name,
    inputs: [
      { name: 'indexName', type: 'STRING' },
      { name: 'queryString', type: 'STRING' },
      { name: 'options', type: 'MAP', default: new Map() },
    ],
    outputs: outputs(entity),
    mode: 'READ',
    description: `Query the given full-text index. Returns the matching ${entity === 'NODE' ? 'nodes' : 'relationships'} and their Lucene query score, ordered by score. Valid keys for the options map are: 'skip', 'limit'.`,
    call(args, ctx) {
      const [index, query, options] = args as [string | null, string | null, ReadonlyMap<string, CypherValue> | null];
      if (index === null || query === null) throw new ArgumentError(`${name} needs an index name and a query string`);
      const skip = options === null ? undefined : nonNegativeInteger(options, 'skip');
      const limit = options === null ? undefined : nonNegativeInteger(options, 'limit');
      const wanted = limit === undefined ? undefined : (skip ?? 0) + limit;
      const rows = visibleRows(backend.queryFulltext(ctx.databaseName, ctx.reader, index, query, wanted, entity), ctx, entity);
      return rows.slice(skip ?? 0, limit === undefined ? undefined : (skip ?? 0) + limit);
    },
  };
}

function vectorQuery(backend: SearchProcedureBackend, entity: IndexEntity): ProcedureDefinition {
  const name = entity === 'NODE' ? 'db.index.vector.queryNodes' : 'db.index.vector.queryRelationships';
  return {
    name,
    inputs: [
      { name: 'indexName', type: 'STRING' },
      { name: 'numberOfNearestNeighbours', type: 'INTEGER' },
      { name: 'query', type: 'ANY' },
    ],
    outputs: outputs(entity),
    mode: 'READ',
    description: `Query the given ${entity === 'NODE' ? 'node' : 'relationship'} vector index. Returns requested number of nearest neighbors to the provided query vector, and their similarity score to that query vector, based on the configured similarity function for the index. The similarity score is a value between [0, 1]; where 0 indicates least similar, 1 most similar.`,
    call(args, ctx) {
      const [index, k, vector] = args as [string | null, bigint | null, CypherValue];
      if (index === null || k === null) throw new ArgumentError(`${name} needs an index name and a number of neighbours`);
      const hits = backend.queryVectorIndex(ctx.databaseName, ctx.reader, index, Number(k), queryVector(vector), entity);
      const execution = ctx.execution;
      const allVisible =
        execution !== undefined &&
        !hasUncommittedWrites(execution) &&
        backend.vectorIndexAtSnapshot?.(ctx.databaseName, ctx.reader, index) === true;
      return visibleRows(hits, ctx, entity, allVisible);
    },
  };
}

/** The search procedures over `backend`. */
export function searchProcedures(backend: SearchProcedureBackend): ProcedureDefinition[] {
  return [
    fulltextQuery(backend, 'NODE'),
    fulltextQuery(backend, 'RELATIONSHIP'),
    vectorQuery(backend, 'NODE'),
    vectorQuery(backend, 'RELATIONSHIP'),
  ];
}
