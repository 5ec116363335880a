/**
 * Rewrite pass: a node or relationship scan whose filters include `id(v) = e`, `id(v) IN e`,
 * `elementId(v) = e` or `elementId(v) IN e` becomes an id seek (Neo4j's NodeByIdSeek,
 * NodeByElementIdSeek, Directed/UndirectedRelationshipBy[Element]IdSeek), which looks the ids up
 * instead of visiting every node or relationship. The filters stay on top, so the rows are
 * exactly those of the scan (e.g. `id(n) = 1.0`, or a relationship's element id compared with a node).
 */
import { Kind } from '../../ast/index.js';
import type { Expression } from '../../ast/index.js';
import { mentionedVariables } from '../ast-utils.js';
import type { Expand } from '../logical/expand.js';
import type { IdSeekSpec, NodeByIdSeek, RelationshipByIdSeek } from '../logical/id-seek.js';
import type { LogicalOperator } from '../logical/logical-operator.js';
import { mapChildren } from '../plan-tree.js';

interface IdCandidate {
  readonly elementId: boolean;
  readonly ids: IdSeekSpec;
}

/** `id(v)` or `elementId(v)`: which one, else null. */
function idCall(e: Expression, variable: string): 'id' | 'elementId' | null {
  if (e.kind !== Kind.FunctionCall || e.namespace.length > 0 || e.distinct || e.args.length !== 1) return null;
  const [arg] = e.args;
  if (arg === undefined || arg.kind !== Kind.Variable || arg.name !== variable) return null;
  const name = e.name.toLowerCase();
  return name === 'id' ? 'id' : name === 'elementid' ? 'elementId' : null;
}

/** Recognizes an id predicate on `variable` whose other side mentions none of `excluded`. */
function candidate(predicate: Expression, variable: string, excluded: readonly string[]): IdCandidate | null {
  if (predicate.kind !== Kind.BinaryOperation) return null;
  const independent = (e: Expression): boolean => {
    const mentioned = mentionedVariables(e);
    return excluded.every((v) => !mentioned.has(v));
  };
  if (predicate.operator === '=') {
    for (const [call, other] of [
      [predicate.left, predicate.right],
      [predicate.right, predicate.left],
    ] as const) {
      const fn = idCall(call, variable);
      if (fn && independent(other)) return { elementId: fn === 'elementId', ids: { kind: 'equals', value: other } };
    }
  }
  if (predicate.operator === 'IN') {
    const fn = idCall(predicate.left, variable);
    if (fn && independent(predicate.right)) return { elementId: fn === 'elementId', ids: { kind: 'in', list: predicate.right } };
  }
  return null;
}

/** The best id predicate among `predicates`: an equality before a list. */
function choose(predicates: readonly Expression[], variable: string, excluded: readonly string[]): IdCandidate | null {
  const found = predicates.map((p) => candidate(p, variable, excluded)).filter((c): c is IdCandidate => c !== null);
  return found.find((c) => c.ids.kind === 'equals') ?? found[0] ?? null;
}

function nodeSeek(
  scan: Extract<LogicalOperator, { op: 'AllNodesScan' | 'NodeByLabelScan' }>,
  predicates: readonly Expression[],
): NodeByIdSeek | null {
  const best = choose(predicates, scan.variable, [scan.variable]);
  if (!best) return null;
  return {
    op: best.elementId ? 'NodeByElementIdSeek' : 'NodeByIdSeek',
    input: scan.input,
    variable: scan.variable,
    label: scan.op === 'NodeByLabelScan' ? scan.label : null,
    ids: best.ids,
  };
}

/**
 * `Filter* ← Expand ← Filter* ← scan(from)` with an id predicate on the relationship: the seek
 * replaces the scan and the expand; the filters that sat between them move on top of the seek.
 */
function relationshipSeek(expand: Expand, predicates: readonly Expression[]): { seek: RelationshipByIdSeek; between: Expression[] } | null {
  if (expand.into || expand.length !== null || expand.properties !== null || expand.from === expand.to) return null;
  const between: Expression[] = [];
  let scan: LogicalOperator = expand.input;
  while (scan.op === 'Filter') {
    between.push(scan.predicate);
    scan = scan.input;
  }
  if ((scan.op !== 'AllNodesScan' && scan.op !== 'NodeByLabelScan') || scan.variable !== expand.from) return null;
  const best = choose(predicates, expand.relationship, [expand.relationship, expand.from, expand.to]);
  if (!best) return null;
  const undirected = expand.direction === 'both';
  const op = `${undirected ? 'Undirected' : 'Directed'}RelationshipBy${best.elementId ? 'ElementId' : 'Id'}Seek` as const;
  return {
    seek: {
      op,
      input: scan.input,
      relationship: expand.relationship,
      left: expand.from,
      right: expand.to,
      direction: expand.direction,
      types: expand.types,
      leftLabel: scan.op === 'NodeByLabelScan' ? scan.label : null,
      ids: best.ids,
    },
    between,
  };
}

/** Replaces scans (and scan + expand pairs) answerable by an id lookup with id seeks. */
export function selectIdSeeks(op: LogicalOperator): LogicalOperator {
  if (op.op !== 'Filter') return mapChildren(op, selectIdSeeks);
  const chain: Expression[] = [];
  let bottom: LogicalOperator = op;
  while (bottom.op === 'Filter') {
    chain.push(bottom.predicate);
    bottom = bottom.input;
  }
  let base: LogicalOperator = bottom;
  if (bottom.op === 'AllNodesScan' || bottom.op === 'NodeByLabelScan') {
    base = nodeSeek(bottom, chain) ?? bottom;
  } else if (bottom.op === 'Expand') {
    const found = relationshipSeek(bottom, chain);
    if (found) {
      base = found.seek;
      chain.push(...found.between);
    }
  }
  const rebuiltBase = mapChildren(base, selectIdSeeks);
  return chain.reduceRight<LogicalOperator>((input, predicate) => ({ op: 'Filter', input, predicate }), rebuiltBase);
}
