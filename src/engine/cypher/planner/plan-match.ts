/**
 * Planning of MATCH patterns: per pattern part, pick the cheapest anchor node (already bound,
 * index seek, smallest label, all nodes), then expand to the right and to the left of it.
 * Inline labels and properties become Filters that the rewrite passes push down and turn into
 * index seeks.
 */
import { SemanticError } from '../../errors/index.js';
import type { Direction } from '../../storage/graph-store.js';
import { Kind } from '../ast/index.js';
import type {
  DynamicLabel,
  Expression,
  LabelExpression,
  NodePattern,
  PathPattern,
  Pattern,
  PatternPart,
  RelationshipPattern,
  ShortestPath as ShortestPathNode,
} from '../ast/index.js';
import { conjunctionNames, disjunctionNames } from '../runtime/expressions/label-expression.js';
import { conjunctionParts, dynamicLabelsOf } from '../runtime/expressions/dynamic-labels.js';
import { hasLabels, mentionedVariables, propertyEquals, variable } from './ast-utils.js';
import type { LogicalOperator } from './logical/logical-operator.js';
import type { PathStep } from './logical/project-path.js';
import type { PlannerContext } from './planner-context.js';

/** A node or relationship of a normalized path, with generated names for anonymous ones. */
interface NodeElement {
  readonly name: string;
  readonly pattern: NodePattern;
}
interface RelElement {
  readonly name: string;
  readonly pattern: RelationshipPattern;
  readonly length: { readonly min: number; readonly max: number } | null;
}

/** Result of planning a pattern: the plan, new variables, relationship names for uniqueness. */
export interface PatternPlan {
  readonly plan: LogicalOperator;
  readonly bound: readonly string[];
  readonly relationships: readonly string[];
  readonly relationshipLists: readonly string[];
}

const MAX_HOPS = Number.MAX_SAFE_INTEGER;

function directionOf(rel: RelationshipPattern, leftToRight: boolean): Direction {
  if (rel.direction === 'BOTH') return 'both';
  const outgoing = rel.direction === 'OUTGOING';
  return outgoing === leftToRight ? 'out' : 'in';
}

/** True when the relationship's type expression has `$(...)` parts (filtered per row after expanding). */
function hasDynamicTypes(rel: RelationshipPattern): boolean {
  return dynamicLabelsOf(rel.types).length > 0;
}

function typesOf(rel: RelationshipPattern): string[] {
  if (!rel.types) return [];
  if (hasDynamicTypes(rel)) {
    if (rel.length)
      throw new SemanticError('Dynamic relationship types are not supported on variable-length relationships', {
        detail: 'UnsupportedFeature',
      });
    return [];
  }
  const names = disjunctionNames(rel.types);
  if (names === null) throw new SemanticError('Unsupported relationship type expression', { detail: 'InvalidRelationshipPattern' });
  return names;
}

/** Flattens quantified single-hop groups `((a)-[r]->(b)){m,n}` into variable-length hops. */
function normalize(path: PathPattern, ctx: PlannerContext): { nodes: NodeElement[]; rels: RelElement[] } {
  const nodes: NodeElement[] = [];
  const rels: RelElement[] = [];
  for (const element of path.elements) {
    if (element.kind === Kind.NodePattern) {
      if (nodes.length > rels.length) {
        nodes[nodes.length - 1] = mergeNodes(nodes[nodes.length - 1]!, element, ctx);
        continue;
      }
      nodes.push({ name: element.variable?.name ?? ctx.anon('node'), pattern: element });
    } else if (element.kind === Kind.RelationshipPattern) {
      const length = element.length
        ? { min: Number(element.length.min ?? 1n), max: element.length.max === null ? MAX_HOPS : Number(element.length.max) }
        : null;
      rels.push({ name: element.variable?.name ?? ctx.anon('rel'), pattern: element, length });
    } else {
      const inner = element.pattern.elements;
      const rel = inner[1];
      if (inner.length !== 3 || !rel || rel.kind !== Kind.RelationshipPattern || element.where || rel.length) {
        throw new SemanticError('Only single-relationship quantified path patterns are supported', { detail: 'UnsupportedFeature' });
      }
      const q = element.quantifier;
      const min = q ? Number(q.min ?? 0n) : 1;
      const max = q ? (q.max === null ? MAX_HOPS : Number(q.max)) : 1;
      if (nodes.length === rels.length) throw new SemanticError('A quantified path pattern needs a node on its left');
      rels.push({ name: rel.variable?.name ?? ctx.anon('rel'), pattern: rel, length: { min, max } });
    }
  }
  if (nodes.length === rels.length) throw new SemanticError('A pattern must end with a node');
  return { nodes, rels };
}

function mergeNodes(a: NodeElement, b: NodePattern, ctx: PlannerContext): NodeElement {
  if (!b.variable && !b.labels && !b.properties && !b.where) return a;
  const name = a.pattern.variable?.name ?? b.variable?.name ?? ctx.anon('node');
  return {
    name,
    pattern: { ...b, variable: variable(name), labels: b.labels ?? a.pattern.labels, properties: b.properties ?? a.pattern.properties },
  };
}

/** Filters implied by a node pattern (labels not covered by the scan, properties, inline WHERE). */
function nodePredicates(node: NodeElement, scannedLabel: string | null): Expression[] {
  const out: Expression[] = [];
  const p = node.pattern;
  if (p.labels) {
    const names = conjunctionNames(p.labels);
    if (names) {
      const rest = names.filter((l) => l !== scannedLabel);
      if (rest.length > 0) out.push(hasLabels(node.name, labelAnd(rest)));
    } else out.push(hasLabels(node.name, p.labels));
  }
  out.push(...propertyPredicates(node.name, p.properties));
  if (p.where) out.push(p.where);
  return out;
}

function labelAnd(names: readonly string[]): LabelExpression {
  return names
    .map((name): LabelExpression => ({ kind: Kind.LabelName, name }))
    .reduce((left, right) => ({ kind: Kind.LabelAnd, left, right, colon: true }));
}

function propertyPredicates(subject: string, props: NodePattern['properties']): Expression[] {
  if (!props) return [];
  if (props.kind === Kind.Parameter) {
    throw new SemanticError('Parameter maps cannot be used in MATCH patterns (use a literal map instead, e.g. "{id: $param.id}")', {
      detail: 'InvalidParameterUse',
    });
  }
  return props.entries.map((e) => propertyEquals(subject, e.key, e.value));
}

function withFilters(plan: LogicalOperator, predicates: readonly Expression[]): LogicalOperator {
  return predicates.reduce<LogicalOperator>((input, predicate) => ({ op: 'Filter', input, predicate }), plan);
}

/** Estimated rows of starting at `node`, and the scan to use. */
function anchorCost(node: NodeElement, bound: ReadonlySet<string>, ctx: PlannerContext): { cost: number; label: string | null } {
  if (bound.has(node.name)) return { cost: 0, label: null };
  const labels = node.pattern.labels ? (conjunctionParts(node.pattern.labels)?.names ?? []) : [];
  const props = node.pattern.properties?.kind === Kind.MapLiteral ? node.pattern.properties.entries.map((e) => e.key) : [];
  let best = { cost: ctx.catalog.countNodes() + 1, label: null as string | null };
  for (const label of labels) {
    const indexed = props.some((p) => ctx.catalog.findIndex('NODE', label, p) !== null);
    const cost = indexed ? 1 : ctx.catalog.countNodes(label) + 0.5;
    if (cost < best.cost) best = { cost, label };
  }
  // A dynamic label's size is unknown when planning: assume half the nodes, better than none.
  if (best.label === null && scannableDynamicLabel(node, bound) !== null) best = { cost: ctx.catalog.countNodes() / 2 + 0.75, label: null };
  return best;
}

/**
 * The dynamic label of a conjunction (`:$(x)`, `:$any(x)`, `:$(x)&$(y)`) a scan can evaluate
 * before the node is bound: its expression only uses variables bound earlier.
 */
function scannableDynamicLabel(node: NodeElement, bound: ReadonlySet<string>): DynamicLabel | null {
  const parts = node.pattern.labels ? conjunctionParts(node.pattern.labels) : null;
  const usable = parts?.dynamic.find((d) => [...mentionedVariables(d.expression)].every((name) => bound.has(name)));
  return usable ?? null;
}

function scanNode(input: LogicalOperator, node: NodeElement, label: string | null, bound: ReadonlySet<string>): LogicalOperator {
  const dynamic = label === null ? scannableDynamicLabel(node, bound) : null;
  const scan: LogicalOperator =
    label !== null
      ? { op: 'NodeByLabelScan', input, variable: node.name, label }
      : dynamic !== null
        ? { op: 'NodeByDynamicLabelScan', input, variable: node.name, labels: dynamic.expression, any: dynamic.quantifier === 'any' }
        : { op: 'AllNodesScan', input, variable: node.name };
  return withFilters(scan, nodePredicates(node, label));
}

/**
 * A relationship of the path that an index can anchor: fixed length, one type, unbound with
 * unbound ends, and an inline property covered by a RELATIONSHIP index.
 */
function relationshipSeek(
  nodes: readonly NodeElement[],
  rels: readonly RelElement[],
  bound: ReadonlySet<string>,
  ctx: PlannerContext,
): { index: number; rel: RelElement; left: NodeElement; right: NodeElement; seek: (input: LogicalOperator) => LogicalOperator } | null {
  for (let index = 0; index < rels.length; index++) {
    const rel = rels[index]!;
    const left = nodes[index]!;
    const right = nodes[index + 1]!;
    const types = typesOf(rel.pattern);
    const props = rel.pattern.properties;
    if (rel.length || types.length !== 1 || props?.kind !== Kind.MapLiteral) continue;
    if (bound.has(rel.name) || bound.has(left.name) || bound.has(right.name) || left.name === right.name) continue;
    for (const entry of props.entries) {
      const definition = ctx.catalog.findIndex('RELATIONSHIP', types[0]!, entry.key);
      if (!definition || definition.type !== 'RANGE') continue;
      const seek = (input: LogicalOperator): LogicalOperator => ({
        op: 'RelationshipIndexSeek',
        input,
        relationship: rel.name,
        left: left.name,
        right: right.name,
        direction: directionOf(rel.pattern, true),
        type: types[0]!,
        property: entry.key,
        indexName: definition.name,
        value: entry.value,
      });
      return { index, rel, left, right, seek };
    }
  }
  return null;
}

/** Plans one path (not shortestPath) on top of `input`. */
function planPath(
  input: LogicalOperator,
  path: PathPattern,
  bound: Set<string>,
  ctx: PlannerContext,
  out: { relationships: string[]; lists: string[] },
  pathVariable: string | null,
): LogicalOperator {
  const { nodes, rels } = normalize(path, ctx);
  const costs = nodes.map((n) => anchorCost(n, bound, ctx));
  const hasVarLength = rels.some((r) => r.length !== null);
  let anchor = 0;
  if (!(hasVarLength && pathVariable)) {
    costs.forEach((c, i) => {
      if (c.cost < (costs[anchor]?.cost ?? Infinity)) anchor = i;
    });
  }
  const relSeek = (costs[anchor]?.cost ?? 0) > 1 && !(hasVarLength && pathVariable) ? relationshipSeek(nodes, rels, bound, ctx) : null;
  let plan: LogicalOperator;
  let rightStart = anchor;
  let leftStart = anchor - 1;
  if (relSeek) {
    const { index, rel, left, right } = relSeek;
    plan = withFilters(relSeek.seek(input), [
      ...propertyPredicates(rel.name, rel.pattern.properties),
      ...(rel.pattern.where ? [rel.pattern.where] : []),
      ...nodePredicates(left, null),
      ...nodePredicates(right, null),
    ]);
    for (const name of [left.name, right.name, rel.name]) bound.add(name);
    out.relationships.push(rel.name);
    rightStart = index + 1;
    leftStart = index - 1;
  } else {
    const anchorNode = nodes[anchor]!;
    plan = bound.has(anchorNode.name)
      ? withFilters(input, nodePredicates(anchorNode, null))
      : scanNode(input, anchorNode, costs[anchor]?.label ?? null, bound);
    bound.add(anchorNode.name);
  }
  const expand = (fromIndex: number, relIndex: number, toIndex: number, leftToRight: boolean): void => {
    const rel = rels[relIndex]!;
    const from = nodes[fromIndex]!;
    const to = nodes[toIndex]!;
    const into = bound.has(to.name);
    const relBound = bound.has(rel.name);
    const relName = relBound ? ctx.anon('rel') : rel.name;
    plan = {
      op: 'Expand',
      input: plan,
      from: from.name,
      relationship: relName,
      to: to.name,
      direction: directionOf(rel.pattern, leftToRight),
      types: typesOf(rel.pattern),
      into,
      length: rel.length,
      properties: rel.length ? rel.pattern.properties : null,
    };
    if (rel.length && !leftToRight) {
      plan = {
        op: 'Projection',
        input: plan,
        items: [
          {
            name: relName,
            expression: { kind: Kind.FunctionCall, namespace: [], name: 'reverse', distinct: false, args: [variable(relName)] },
          },
        ],
        keepInput: true,
      };
    }
    const predicates: Expression[] = [];
    if (relBound) predicates.push({ kind: Kind.BinaryOperation, operator: '=', left: variable(relName), right: variable(rel.name) });
    if (!rel.length) predicates.push(...propertyPredicates(relName, rel.pattern.properties));
    if (rel.pattern.types && hasDynamicTypes(rel.pattern)) predicates.push(hasLabels(relName, rel.pattern.types));
    if (rel.pattern.where) predicates.push(rel.pattern.where);
    predicates.push(...nodePredicates(to, null));
    plan = withFilters(plan, predicates);
    bound.add(to.name);
    bound.add(rel.name);
    if (rel.length) out.lists.push(relName);
    else out.relationships.push(relName);
  };
  for (let i = rightStart; i < rels.length; i++) expand(i, i, i + 1, true);
  for (let i = leftStart; i >= 0; i--) expand(i + 1, i, i, false);
  if (pathVariable) {
    const steps: PathStep[] = [];
    nodes.forEach((n, i) => {
      steps.push({ node: n.name });
      const rel = rels[i];
      if (rel) steps.push({ relationship: rel.name, list: rel.length !== null });
    });
    plan = { op: 'ProjectPath', input: plan, variable: pathVariable, steps };
    bound.add(pathVariable);
  }
  return plan;
}

function planShortest(
  input: LogicalOperator,
  element: ShortestPathNode,
  bound: Set<string>,
  ctx: PlannerContext,
  pathVariable: string,
): LogicalOperator {
  const { nodes, rels } = normalize(element.pattern, ctx);
  const rel = rels[0];
  const [first, last] = [nodes[0], nodes[1]];
  if (rels.length !== 1 || !rel || !first || !last) {
    throw new SemanticError('shortestPath requires a pattern with a single relationship', { detail: 'InvalidShortestPath' });
  }
  let plan = input;
  for (const node of [first, last]) {
    if (bound.has(node.name)) continue;
    const cost = anchorCost(node, bound, ctx);
    plan = scanNode(plan, node, cost.label, bound);
    bound.add(node.name);
  }
  const length = rel.length ?? { min: 1, max: 1 };
  if (hasDynamicTypes(rel.pattern))
    throw new SemanticError('Dynamic relationship types are not supported in shortest paths', { detail: 'UnsupportedFeature' });
  plan = {
    op: 'ShortestPath',
    input: plan,
    from: first.name,
    to: last.name,
    pathVariable,
    relationshipVariable: rel.pattern.variable?.name ?? null,
    direction: directionOf(rel.pattern, true),
    types: typesOf(rel.pattern),
    min: length.min,
    max: length.max,
    all: element.all,
    predicate: null,
  };
  bound.add(pathVariable);
  if (rel.pattern.variable) bound.add(rel.pattern.variable.name);
  return plan;
}

/** Plans a whole MATCH pattern (all parts) on top of `input`, then relationship uniqueness. */
export function planPattern(input: LogicalOperator, pattern: Pattern, scope: readonly string[], ctx: PlannerContext): PatternPlan {
  const bound = new Set(scope);
  const out = { relationships: [] as string[], lists: [] as string[] };
  let plan = input;
  for (const part of pattern.parts) plan = planPart(plan, part, bound, ctx, out);
  if (out.relationships.length + out.lists.length > 1) {
    plan = { op: 'RelationshipUniqueness', input: plan, relationships: out.relationships, lists: out.lists };
  }
  const introduced = [...bound].filter((v) => !scope.includes(v));
  return { plan, bound: introduced, relationships: out.relationships, relationshipLists: out.lists };
}

function planPart(
  input: LogicalOperator,
  part: PatternPart,
  bound: Set<string>,
  ctx: PlannerContext,
  out: { relationships: string[]; lists: string[] },
): LogicalOperator {
  const pathVariable = part.variable?.name ?? null;
  if (part.element.kind === Kind.ShortestPath) {
    return planShortest(input, part.element, bound, ctx, pathVariable ?? ctx.anon('path'));
  }
  if (part.selector && part.selector.selector !== 'ALL') {
    const shortest: ShortestPathNode = {
      kind: Kind.ShortestPath,
      all: part.selector.selector === 'ALL SHORTEST',
      pattern: part.element,
    };
    return planShortest(input, shortest, bound, ctx, pathVariable ?? ctx.anon('path'));
  }
  return planPath(input, part.element, bound, ctx, out, pathVariable);
}
