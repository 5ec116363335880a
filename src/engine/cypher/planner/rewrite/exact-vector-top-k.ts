/**
 * Rewrite pass: exact kNN written as a sort,
 *
 *   MATCH (n:L) [WHERE n.p IS NOT NULL] RETURN ... ORDER BY vector.similarity.cosine(n.p, $q) DESC LIMIT k
 *
 * (`euclidean` too, the arguments either way round, the key as a projected column), becomes a
 * `NodeVectorTopK` under the same projection and limit: the operator answers from a VECTOR
 * index's in-memory vectors when it can do so exactly and runs the original label scan, filter
 * and sort otherwise (logical/node-vector-top-k.ts). Only projections whose items cannot fail on
 * any row qualify, because the rewritten plan evaluates them on the k rows kept instead of every
 * node: variables, `n.key`, parameters, literals, `id`/`elementId`/`labels`/`properties` of a
 * variable and the similarity call itself.
 */
import { Kind } from '../../ast/index.js';
import type { Expression, FunctionCall } from '../../ast/index.js';
import type { Filter } from '../logical/filter.js';
import type { LogicalOperator } from '../logical/logical-operator.js';
import type { NamedExpression } from '../logical/projection.js';
import { mapChildren } from '../plan-tree.js';

/** The similarity call of a sort key, recognised. */
interface SimilarityKey {
  readonly call: FunctionCall;
  readonly similarity: 'cosine' | 'euclidean';
  readonly variable: string;
  readonly property: string;
  readonly query: Expression;
}

const NODE_FUNCTIONS = new Set(['id', 'elementid', 'labels', 'properties']);

function isConstant(e: Expression): boolean {
  switch (e.kind) {
    case Kind.Parameter:
    case Kind.IntegerLiteral:
    case Kind.FloatLiteral:
      return true;
    case Kind.UnaryOperation:
      return e.operator === '-' && (e.operand.kind === Kind.IntegerLiteral || e.operand.kind === Kind.FloatLiteral);
    case Kind.ListLiteral:
      return e.items.every(isConstant);
    default:
      return false;
  }
}

function similarityKey(e: Expression): SimilarityKey | null {
  if (e.kind !== Kind.FunctionCall || e.distinct || e.args.length !== 2) return null;
  if (e.namespace.length !== 2 || e.namespace[0]!.toLowerCase() !== 'vector' || e.namespace[1]!.toLowerCase() !== 'similarity') return null;
  const name = e.name.toLowerCase();
  if (name !== 'cosine' && name !== 'euclidean') return null;
  const [a, b] = e.args as [Expression, Expression];
  const [access, query] = a.kind === Kind.PropertyAccess ? [a, b] : [b, a];
  if (access.kind !== Kind.PropertyAccess || access.object.kind !== Kind.Variable || !isConstant(query)) return null;
  return { call: e, similarity: name, variable: access.object.name, property: access.property, query };
}

/** True for projection items that evaluate without error on any node row. */
function cannotFail(e: Expression, key: SimilarityKey): boolean {
  if (e === key.call) return true;
  switch (e.kind) {
    case Kind.Variable:
    case Kind.Parameter:
    case Kind.IntegerLiteral:
    case Kind.FloatLiteral:
    case Kind.StringLiteral:
    case Kind.BooleanLiteral:
    case Kind.NullLiteral:
      return true;
    case Kind.PropertyAccess:
      return e.object.kind === Kind.Variable && e.object.name === key.variable;
    case Kind.FunctionCall:
      return (
        e.namespace.length === 0 &&
        NODE_FUNCTIONS.has(e.name.toLowerCase()) &&
        e.args.length === 1 &&
        e.args[0]!.kind === Kind.Variable &&
        e.args[0].name === key.variable
      );
    default:
      return false;
  }
}

/** `variable.property IS NOT NULL`. */
function requiresProperty(filter: Filter, key: SimilarityKey): boolean {
  const p = filter.predicate;
  return (
    p.kind === Kind.IsNull &&
    p.negated &&
    p.operand.kind === Kind.PropertyAccess &&
    p.operand.property === key.property &&
    p.operand.object.kind === Kind.Variable &&
    p.operand.object.name === key.variable
  );
}

/** The sort key as a similarity call: the call itself, or a projected column holding it. */
function keyOf(expression: Expression, items: readonly NamedExpression[]): SimilarityKey | null {
  if (expression.kind === Kind.Variable) {
    const item = items.find((i) => i.name === expression.name);
    return item === undefined ? null : similarityKey(item.expression);
  }
  return similarityKey(expression);
}

function rewriteLimit(limit: LogicalOperator): LogicalOperator | null {
  if (limit.op !== 'Limit' || limit.exhaustInput) return null;
  if (limit.count.kind !== Kind.Parameter && limit.count.kind !== Kind.IntegerLiteral) return null;
  const sort = limit.input;
  if (sort.op !== 'Sort' || sort.keys.length !== 1 || !sort.keys[0]!.descending) return null;
  const projection = sort.input;
  if (projection.op !== 'Projection') return null;
  const key = keyOf(sort.keys[0]!.expression, projection.items);
  if (key === null || !projection.items.every((i) => cannotFail(i.expression, key))) return null;
  let scan = projection.input;
  let requireProperty = false;
  if (scan.op === 'Filter') {
    if (!requiresProperty(scan, key)) return null;
    requireProperty = true;
    scan = scan.input;
  }
  if (scan.op !== 'NodeByLabelScan' || scan.variable !== key.variable || scan.input.op !== 'Argument') return null;
  const filtered: LogicalOperator = requireProperty ? { ...(projection.input as Filter), input: scan } : scan;
  return {
    ...limit,
    input: {
      ...projection,
      input: {
        op: 'NodeVectorTopK',
        input: scan.input,
        variable: key.variable,
        label: scan.label,
        property: key.property,
        similarity: key.similarity,
        score: key.call,
        query: key.query,
        count: limit.count,
        requireProperty,
        fallback: { op: 'Sort', input: filtered, keys: [{ expression: key.call, descending: true }] },
      },
    },
  };
}

/** Replaces every `Limit ← Sort ← Projection ← [Filter] ← NodeByLabelScan` of the exact-kNN shape. */
export function exactVectorTopK(op: LogicalOperator): LogicalOperator {
  const rewritten = mapChildren(op, exactVectorTopK);
  return rewriteLimit(rewritten) ?? rewritten;
}
