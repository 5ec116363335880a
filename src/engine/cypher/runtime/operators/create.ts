/**
 * CREATE, and the pattern-creation step MERGE shares with it.
 */
import { ArgumentError, CypherTypeError, SemanticError } from '../../../errors/index.js';
import { typeName } from '../../../values/index.js';
import { NodeRef, PathRef, RelationshipRef } from '../../../values/types.js';
import type { CypherMap, CypherValue } from '../../../values/types.js';
import { Kind } from '../../ast/index.js';
import type { MapLiteral, NodePattern, Parameter, PatternPart, RelationshipPattern } from '../../ast/index.js';
import type { Create } from '../../planner/logical/create.js';
import type { ExecutionContext } from '../execution-context.js';
import { requireWriter } from '../execution-context.js';
import type { Evaluator } from '../expressions/evaluator.js';
import { disjunctionNames } from '../expressions/label-expression.js';
import { compileWriteLabels, conjunctionParts, dynamicNames } from '../expressions/dynamic-labels.js';
import { isSignal } from '../row.js';
import type { Row } from '../row.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

/** Names anonymous pattern elements uniquely across every compiled CREATE/MERGE part. */
let anonymousCounter = 0;

/** A pattern part compiled for creation. */
export type PartCreator = (row: Row, ctx: ExecutionContext) => Row;

/** Dynamic labels (`:$(expr)`) of a created node, evaluated per row. */
type RowLabels = ((row: Row, ctx: ExecutionContext) => string[]) | null;

type Step =
  | { kind: 'node'; variable: string; labels: readonly string[]; dynamicLabels: RowLabels; props: Evaluator | null }
  | {
      kind: 'rel';
      variable: string;
      type: string;
      dynamicType: Evaluator | null;
      props: Evaluator | null;
      direction: 'OUTGOING' | 'INCOMING' | 'BOTH';
    };

/** Evaluates a property map (map literal or parameter) of a pattern, dropping null values. */
export function propertyMap(value: CypherValue): Map<string, CypherValue> {
  if (value === null) return new Map();
  if (!(value instanceof Map)) throw new CypherTypeError(`Type mismatch: expected a map but was ${typeName(value)}`);
  const out = new Map<string, CypherValue>();
  for (const [k, v] of value as CypherMap) if (v !== null) out.set(k, v);
  return out;
}

function compileProps(props: MapLiteral | Parameter | null, m: Mapper): Evaluator | null {
  return props ? m.compile(props) : null;
}

function nodeStep(node: NodePattern, m: Mapper, anon: () => string): Step {
  const parts = node.labels ? conjunctionParts(node.labels) : { names: [], dynamic: [] };
  if (parts === null || parts.dynamic.some((d) => d.quantifier === 'any')) {
    throw new SemanticError('Label expressions are not allowed in CREATE/MERGE', { detail: 'InvalidLabelExpression' });
  }
  const dynamicLabels = compileWriteLabels(parts.dynamic, (label) => m.compile(label.expression), 'label');
  return {
    kind: 'node',
    variable: node.variable?.name ?? anon(),
    labels: parts.names,
    dynamicLabels,
    props: compileProps(node.properties, m),
  };
}

function relStep(rel: RelationshipPattern, m: Mapper, anon: () => string): Step {
  const variable = rel.variable?.name ?? anon();
  const props = compileProps(rel.properties, m);
  if (rel.types?.kind === Kind.DynamicLabel && rel.types.quantifier !== 'any') {
    return { kind: 'rel', variable, type: '', dynamicType: m.compile(rel.types.expression), props, direction: rel.direction };
  }
  const types = rel.types ? disjunctionNames(rel.types) : null;
  if (!types || types.length !== 1) {
    throw new SemanticError('A single relationship type must be specified for CREATE', { detail: 'NoSingleRelationshipType' });
  }
  return { kind: 'rel', variable, type: types[0] ?? '', dynamicType: null, props, direction: rel.direction };
}

/** The type of a relationship to create: the static one, or the single name its `$(expr)` gives. */
function relationshipType(step: Extract<Step, { kind: 'rel' }>, row: Row, ctx: ExecutionContext): string {
  if (step.dynamicType === null) return step.type;
  const names = dynamicNames(step.dynamicType(row, ctx), 'relationship type');
  if (names.length !== 1)
    throw new ArgumentError(`A relationship must be created with exactly one type, but the dynamic type gave ${names.length}.`);
  return names[0]!;
}

/** Creation options of MERGE: the storage serialises concurrent MERGEs of one pattern (docs/transactions.md). */
const MERGE_CREATE = { merge: true } as const;

/** Compiles one pattern part for creation; bound node variables are reused, not created. */
export function compilePartCreator(part: PatternPart, m: Mapper, nullCheck: 'merge' | null): PartCreator {
  if (part.element.kind !== Kind.PathPattern) throw new SemanticError('shortestPath cannot be created');
  const anon = (): string => `  create_${anonymousCounter++}`;
  const steps = part.element.elements.map((e) => {
    if (e.kind === Kind.NodePattern) return nodeStep(e, m, anon);
    if (e.kind === Kind.RelationshipPattern) return relStep(e, m, anon);
    throw new SemanticError('Quantified patterns cannot be created');
  });
  const pathVariable = part.variable?.name ?? null;
  return (input, ctx) => {
    const writer = requireWriter(ctx);
    const row: Record<string, CypherValue> = { ...input };
    const nodes: NodeRef[] = [];
    const rels: RelationshipRef[] = [];
    const pendingRels: { step: Extract<Step, { kind: 'rel' }>; from: NodeRef }[] = [];
    for (const step of steps) {
      if (step.kind === 'rel') {
        const last = nodes[nodes.length - 1];
        if (last) pendingRels.push({ step, from: last });
        continue;
      }
      let node = row[step.variable];
      if (!(node instanceof NodeRef)) {
        if (node !== undefined && node !== null) throw new CypherTypeError(`Type mismatch: expected Node but was ${typeName(node)}`);
        const props = step.props ? evaluateProps(step.props(row, ctx), nullCheck, 'node') : new Map();
        const labels = step.dynamicLabels === null ? step.labels : [...new Set([...step.labels, ...step.dynamicLabels(row, ctx)])];
        node = new NodeRef(writer.createNode(labels, props, nullCheck === 'merge' ? MERGE_CREATE : undefined));
        row[step.variable] = node;
      }
      const pending = pendingRels.pop();
      if (pending) {
        const { step: r, from } = pending;
        const props = r.props ? evaluateProps(r.props(row, ctx), nullCheck, 'relationship') : new Map();
        const [start, end] = r.direction === 'INCOMING' ? [node, from] : [from, node];
        const type = relationshipType(r, row, ctx);
        const id = writer.createRelationship(type, start.id, end.id, props, nullCheck === 'merge' ? MERGE_CREATE : undefined);
        const ref = new RelationshipRef(id, type, start.id, end.id);
        row[r.variable] = ref;
        rels.push(ref);
      }
      nodes.push(node);
    }
    if (pathVariable) row[pathVariable] = new PathRef(nodes, rels);
    return row;
  };
}

/** The stored property map of a pattern element; MERGE refuses null values. */
function evaluateProps(raw: CypherValue, mode: 'merge' | null, what: string): Map<string, CypherValue> {
  if (mode === 'merge' && raw instanceof Map) {
    for (const [k, v] of raw as CypherMap) {
      if (v === null) {
        throw new SemanticError(`Cannot merge the following ${what} because of null property value for '${k}'`, {
          detail: 'MergeReadOwnWrites',
        });
      }
    }
  }
  return propertyMap(raw);
}

/** CREATE. */
export function mapCreate(op: Create, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const parts = op.parts.map((p) => compilePartCreator(p, m, null));
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      let out: Row = row;
      for (const part of parts) out = part(out, ctx);
      yield out;
    }
  };
}
