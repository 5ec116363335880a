/**
 * Rewrite pass: an ungrouped `count` over a bare node scan or a bare one-hop directed expand
 * from an all-nodes scan is answered from the store's counts (Neo4j's NodeCountFromCountStore
 * and RelationshipCountFromCountStore) instead of visiting every node or relationship; an
 * ungrouped `count` over a bare one-hop directed expand from any other bound node (`MATCH
 * (a:P {id: $id})-[:T]->(b) RETURN count(b)`) from the degree of each node expanded from.
 */
import { Kind } from '../../ast/index.js';
import type { Expression } from '../../ast/index.js';
import type { AggregateItem } from '../logical/aggregation.js';
import type { LogicalOperator } from '../logical/logical-operator.js';
import { mapChildren } from '../plan-tree.js';

/** True when `call` is `count(*)` or `count([DISTINCT] v)` for a variable in `counted`. */
function countsRows(call: Expression, counted: readonly string[]): boolean {
  if (call.kind === Kind.CountStar) return true;
  if (call.kind !== Kind.FunctionCall || call.namespace.length > 0 || call.name.toLowerCase() !== 'count') return false;
  const [arg] = call.args;
  return call.args.length === 1 && arg !== undefined && arg.kind === Kind.Variable && counted.includes(arg.name);
}

function single(aggregates: readonly AggregateItem[]): AggregateItem | null {
  return aggregates.length === 1 ? (aggregates[0] ?? null) : null;
}

/**
 * Replaces `Aggregation(count) ← scan ← Argument` with a count-store operator over the same
 * Argument. Only shapes whose every row is a distinct entity qualify (so `count(DISTINCT v)`
 * equals `count(v)`); any filter, label on a relationship end, property map, `into`,
 * variable length or undirected expand keeps the plan as it is.
 */
export function countFromStore(op: LogicalOperator): LogicalOperator {
  const rewritten = mapChildren(op, countFromStore);
  if (rewritten.op !== 'Aggregation' || rewritten.groupings.length > 0) return rewritten;
  const item = single(rewritten.aggregates);
  if (!item) return rewritten;
  const scan = rewritten.input;
  if ((scan.op === 'AllNodesScan' || scan.op === 'NodeByLabelScan') && scan.input.op === 'Argument') {
    if (!countsRows(item.call, [scan.variable])) return rewritten;
    return {
      op: 'NodeCountFromCountStore',
      input: scan.input,
      name: item.name,
      label: scan.op === 'NodeByLabelScan' ? scan.label : null,
    };
  }
  if (
    scan.op === 'Expand' &&
    !scan.into &&
    scan.length === null &&
    scan.properties === null &&
    scan.direction !== 'both' &&
    scan.input.op === 'AllNodesScan' &&
    scan.input.variable === scan.from &&
    scan.input.input.op === 'Argument' &&
    scan.to !== scan.from &&
    countsRows(item.call, [scan.relationship])
  ) {
    return { op: 'RelationshipCountFromCountStore', input: scan.input.input, name: item.name, types: [...new Set(scan.types)] };
  }
  return countFromDegree(rewritten.input, item) ?? rewritten;
}

/**
 * `count(*)`, `count(r)` or `count(b)` (not DISTINCT: the same relationship or end node can come
 * from several input rows) directly over `Expand (a)-[r:T]->(b)` with a fresh `b`, one hop, no
 * property map and one direction: every relationship the expansion visits is one row, so the
 * count is the sum of `a`'s degrees (a self loop is one relationship in either direction).
 */
function countFromDegree(expand: LogicalOperator, item: AggregateItem): LogicalOperator | null {
  if (
    expand.op !== 'Expand' ||
    expand.into ||
    expand.length !== null ||
    expand.properties !== null ||
    expand.direction === 'both' ||
    expand.to === expand.from ||
    !countsRows(item.call, [expand.relationship, expand.to]) ||
    (item.call.kind === Kind.FunctionCall && item.call.distinct)
  ) {
    return null;
  }
  return {
    op: 'RelationshipCountFromDegree',
    input: expand.input,
    name: item.name,
    from: expand.from,
    direction: expand.direction,
    types: [...new Set(expand.types)],
  };
}
