/**
 * Cypher 25's `SEARCH` subclause of MATCH for vector indexes, built from existing clauses so the
 * analyzer, planner and runtime need nothing new and the search runs on the same engine call as
 * `db.index.vector.queryNodes` / `queryRelationships`:
 *
 *   MATCH (m:Movie) SEARCH m IN (VECTOR INDEX idx FOR q LIMIT k) SCORE AS s WHERE w
 *
 * becomes
 *
 *   CALL db.index.vector.queryNodes('idx', k, q) YIELD node AS m, score AS s
 *   MATCH (m:Movie) WHERE w
 *
 * so the k nearest neighbours, best first, are kept when they also match the pattern. With
 * OPTIONAL MATCH both run inside `OPTIONAL CALL (*) { ... RETURN m, s }`, which yields one row
 * of nulls when nothing matches. The MATCH restrictions Neo4j 2026.01 places on SEARCH (one
 * node or relationship pattern, the binding variable its only variable) are checked here.
 */
import type { CallProcedure, CallSubquery, Clause, Match, ProjectionItem, Return } from '../ast/clauses.js';
import type { Expression, Variable } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { PathPattern } from '../ast/patterns.js';

/** The parsed `SEARCH binding IN (VECTOR INDEX name FOR query LIMIT k) [SCORE AS score]`. */
export interface VectorSearch {
  readonly binding: Variable;
  readonly indexName: string;
  readonly query: Expression;
  readonly limit: Expression;
  readonly score: Variable | null;
}

/** Why a MATCH cannot carry a SEARCH subclause, as Neo4j words it; null when it can. */
export function searchPatternProblem(match: Match, binding: string): string | null {
  const parts = match.pattern.parts;
  const part = parts[0];
  if (parts.length !== 1 || part === undefined || part.selector !== null || part.element.kind !== Kind.PathPattern) {
    return tooComplex;
  }
  const elements = part.element.elements;
  const variables = new Set<string>();
  if (part.variable !== null) variables.add(part.variable.name);
  for (const element of elements) {
    if (element.kind === Kind.QuantifiedPath) return tooComplex;
    if (element.kind === Kind.RelationshipPattern && element.length !== null) return tooComplex;
    if (element.variable !== null) variables.add(element.variable.name);
  }
  if (elements.length !== 1 && elements.length !== 3) return tooComplex;
  if (!variables.has(binding)) {
    return `The search clause binding variable \`${binding}\` must be a variable of the pattern of the enclosing MATCH.`;
  }
  if (variables.size > 1) {
    return 'In order to have a search clause, a MATCH statement can only have one bound variable.';
  }
  return null;
}

const tooComplex =
  'In order to have a search clause, a MATCH statement can only have a single node or relationship pattern and no selectors.';

/** The clauses `match` with `search` runs as (see the module comment). */
export function vectorSearchClauses(match: Match, search: VectorSearch): Clause[] {
  const part = match.pattern.parts[0]!;
  const relationship = (part.element as PathPattern).elements.length === 3;
  const loc = match.loc ? { loc: match.loc } : {};
  const yieldItems = [
    { kind: Kind.YieldItem, field: relationship ? 'relationship' : 'node', alias: search.binding } as const,
    ...(search.score === null ? [] : [{ kind: Kind.YieldItem, field: 'score', alias: search.score } as const]),
  ];
  const call: CallProcedure = {
    kind: Kind.CallProcedure,
    optional: false,
    namespace: ['db', 'index', 'vector'],
    name: relationship ? 'queryRelationships' : 'queryNodes',
    args: [{ kind: Kind.StringLiteral, value: search.indexName }, search.limit, search.query],
    yieldStar: false,
    yieldItems,
    where: null,
    ...loc,
  };
  const filter: Match = { ...match, optional: false };
  if (!match.optional) return [call, filter];
  const returned = [search.binding, ...(search.score === null ? [] : [search.score])];
  const items: ProjectionItem[] = returned.map((variable) => ({
    kind: Kind.ProjectionItem,
    expression: variable,
    alias: null,
    text: variable.name,
  }));
  const result: Return = {
    kind: Kind.Return,
    projection: { kind: Kind.ProjectionBody, distinct: false, star: false, items, orderBy: null, skip: null, limit: null },
  };
  const subquery: CallSubquery = {
    kind: Kind.CallSubquery,
    optional: true,
    scope: '*',
    query: { kind: Kind.SingleQuery, clauses: [call, filter, result] },
    inTransactions: null,
    ...loc,
  };
  return [subquery];
}
