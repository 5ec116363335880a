import { Kind } from '../../ast/index.js';
import type { Expression } from '../../ast/index.js';
import { mentionedVariables } from '../ast-utils.js';
import type { LogicalOperator } from '../logical/logical-operator.js';
import type { NodeByLabelScan } from '../logical/node-by-label-scan.js';
import type { NodeIndexSeek, SeekSpec } from '../logical/node-index-seek.js';
import { mapChildren } from '../plan-tree.js';
import type { PlannerCatalog } from '../planner-context.js';

interface Candidate {
  readonly predicate: Expression;
  readonly property: string;
  readonly seek: SeekSpec;
  readonly rank: number;
}

/** Seek kinds each index type answers exactly (TEXT only for string predicates). */
const SUPPORTED: Partial<Record<string, readonly SeekSpec['kind'][]>> = {
  RANGE: ['equals', 'in', 'range', 'prefix'],
  TEXT: ['prefix', 'suffix', 'contains'],
};

const FLIPPED = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' } as const;

/** Recognizes `v.p op e` (either side) where `e` does not mention `v`. */
function candidate(predicate: Expression, variable: string): Candidate | null {
  if (predicate.kind !== Kind.BinaryOperation) return null;
  const { operator } = predicate;
  const sides: [Expression, Expression, boolean][] = [
    [predicate.left, predicate.right, false],
    [predicate.right, predicate.left, true],
  ];
  for (const [prop, other, flipped] of sides) {
    if (prop.kind !== Kind.PropertyAccess || prop.object.kind !== Kind.Variable || prop.object.name !== variable) continue;
    if (mentionedVariables(other).has(variable)) continue;
    const property = prop.property;
    if (operator === '=') return { predicate, property, seek: { kind: 'equals', value: other }, rank: 0 };
    if (flipped) {
      if (operator in FLIPPED) return rangeCandidate(predicate, property, FLIPPED[operator as keyof typeof FLIPPED], other);
      continue;
    }
    if (operator === 'IN') return { predicate, property, seek: { kind: 'in', list: other }, rank: 1 };
    if (operator === 'STARTS WITH') return { predicate, property, seek: { kind: 'prefix', value: other }, rank: 2 };
    if (operator === 'ENDS WITH') return { predicate, property, seek: { kind: 'suffix', value: other }, rank: 4 };
    if (operator === 'CONTAINS') return { predicate, property, seek: { kind: 'contains', value: other }, rank: 4 };
    if (operator in FLIPPED) return rangeCandidate(predicate, property, operator as keyof typeof FLIPPED, other);
  }
  return null;
}

function rangeCandidate(predicate: Expression, property: string, operator: '<' | '<=' | '>' | '>=', value: Expression): Candidate {
  const bound = { value, inclusive: operator.endsWith('=') };
  const lower = operator.startsWith('>') ? bound : null;
  const upper = operator.startsWith('<') ? bound : null;
  return { predicate, property, seek: { kind: 'range', lower, upper }, rank: 3 };
}

type RangeSeek = Extract<SeekSpec, { kind: 'range' }>;

/** `x > a AND x < b` on one property becomes one range with both bounds (first bound of each side wins). */
function mergeRanges(a: RangeSeek, b: RangeSeek): RangeSeek {
  return { kind: 'range', lower: a.lower ?? b.lower, upper: a.upper ?? b.upper };
}

/** Picks the best index-answerable predicate among the filters sitting on a label scan. */
function chooseSeek(scan: NodeByLabelScan, predicates: readonly Expression[], catalog: PlannerCatalog): LogicalOperator {
  const usable: (Candidate & { index: string; indexType: string })[] = [];
  for (const predicate of predicates) {
    const c = candidate(predicate, scan.variable);
    if (!c) continue;
    const index = catalog.findIndex('NODE', scan.label, c.property);
    if (!index || !SUPPORTED[index.type]?.includes(c.seek.kind)) continue;
    usable.push({ ...c, index: index.name, indexType: index.type });
  }
  usable.sort((a, b) => a.rank - b.rank);
  let best = usable[0];
  if (best && best.seek.kind === 'range') {
    const property = best.property;
    const ranges = usable
      .filter((u) => u.property === property)
      .map((u) => u.seek)
      .filter((seek): seek is RangeSeek => seek.kind === 'range');
    best = { ...best, seek: ranges.reduce(mergeRanges) };
  }
  if (!best) return scan;
  const seek: NodeIndexSeek = {
    op: 'NodeIndexSeek',
    input: scan.input,
    variable: scan.variable,
    label: scan.label,
    property: best.property,
    indexName: best.index,
    seek: best.seek,
  };
  return best.seek.kind === 'equals' && best.indexType === 'RANGE' ? { ...seek, folded: best.predicate } : seek;
}

/**
 * Replaces a NodeByLabelScan whose filters include an indexable predicate with a NodeIndexSeek.
 * The filters stay on top, so results never depend on index semantics, except the equality an
 * equality seek was chosen from: it moves into the seek (`folded`), which applies it only for
 * values whose key equality is not Cypher equality.
 */
export function selectIndexSeeks(catalog: PlannerCatalog): (op: LogicalOperator) => LogicalOperator {
  const rewrite = (op: LogicalOperator): LogicalOperator => {
    if (op.op !== 'Filter') return mapChildren(op, rewrite);
    const chain: Expression[] = [];
    let bottom: LogicalOperator = op;
    while (bottom.op === 'Filter') {
      chain.push(bottom.predicate);
      bottom = bottom.input;
    }
    const base = bottom.op === 'NodeByLabelScan' ? chooseSeek(bottom, chain, catalog) : bottom;
    const rebuiltBase = mapChildren(base, rewrite);
    const folded = base.op === 'NodeIndexSeek' ? base.folded : undefined;
    const kept = folded === undefined ? chain : chain.filter((predicate) => predicate !== folded);
    return kept.reduceRight<LogicalOperator>((input, predicate) => ({ op: 'Filter', input, predicate }), rebuiltBase);
  };
  return rewrite;
}
