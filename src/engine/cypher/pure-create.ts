/**
 * Decides from the parsed AST whether a statement is a *pure CREATE*, eligible for the
 * write-behind path (docs/http.md, write consistency on the transactional endpoint): a single
 * query made only of `CREATE` clauses, optionally after `UNWIND`s, with no `RETURN`, no reads of
 * the graph (MATCH, subqueries, pattern expressions), no `USE`, and no EXPLAIN/PROFILE.
 * Anything else (MERGE, SET, DELETE, MATCH ... CREATE, schema and system commands) is synchronous.
 */
import { childrenOf, Kind, type AstNode, type Expression, type Statement } from './ast/index.js';
import type { CypherValue } from '../values/types.js';

/** Estimated effect of a pure CREATE, used against the write-behind cache limits. */
export interface PureCreateEstimate {
  readonly nodes: number;
  readonly relationships: number;
}

/** Expression kinds that read the graph; a CREATE containing one is read-modify-write. */
const GRAPH_READING_KINDS: ReadonlySet<Kind> = new Set([
  Kind.PatternExpression,
  Kind.PatternComprehension,
  Kind.SubqueryPattern,
  Kind.ExistsSubquery,
  Kind.CountSubquery,
  Kind.CollectSubquery,
  Kind.ShortestPath,
]);

function readsGraph(node: AstNode): boolean {
  if (GRAPH_READING_KINDS.has(node.kind)) return true;
  return childrenOf(node).some(readsGraph);
}

function listLength(expression: Expression, parameters: ReadonlyMap<string, CypherValue>): number {
  if (expression.kind === Kind.ListLiteral) return expression.items.length;
  if (expression.kind === Kind.Parameter) {
    const value = parameters.get(expression.name);
    if (Array.isArray(value)) return value.length;
  }
  return 1;
}

/**
 * Returns the estimate when `statement` is a pure CREATE, else null.
 * `parameters` sizes `UNWIND $rows` for the estimate.
 */
export function pureCreateEstimate(statement: Statement, parameters: ReadonlyMap<string, CypherValue>): PureCreateEstimate | null {
  if (statement.explain !== null || statement.body.kind !== Kind.SingleQuery) return null;
  const clauses = statement.body.clauses;
  if (clauses.length === 0 || clauses[clauses.length - 1]!.kind !== Kind.Create) return null;
  let multiplier = 1;
  let nodes = 0;
  let relationships = 0;
  const bound = new Set<string>();
  for (const clause of clauses) {
    if (readsGraph(clause)) return null;
    if (clause.kind === Kind.Unwind) {
      multiplier *= listLength(clause.expression, parameters);
      bound.add(clause.variable.name);
      continue;
    }
    if (clause.kind !== Kind.Create) return null;
    for (const part of clause.pattern.parts) {
      if (part.element.kind !== Kind.PathPattern) return null;
      for (const element of part.element.elements) {
        if (element.kind === Kind.NodePattern) {
          const name = element.variable?.name;
          if (name === undefined || !bound.has(name)) nodes += multiplier;
          if (name !== undefined) bound.add(name);
        } else if (element.kind === Kind.RelationshipPattern) {
          relationships += multiplier;
        } else {
          return null;
        }
      }
    }
  }
  return { nodes, relationships };
}
