/**
 * Where the variables of a statement come from, for the privilege marking of access.ts: the
 * label/type segments of the patterns that bind each name, followed through aliases, UNWIND and
 * path variables to a fixed point.
 */
import { Kind } from '../ast/kinds.js';
import type { AstNode } from '../ast/nodes.js';
import type { LabelExpression, NodePattern, PathPattern, Pattern, PatternPart, RelationshipPattern } from '../ast/patterns.js';
import type { Statement } from '../ast/statements.js';
import { childrenOf, visit } from '../ast/visitor.js';
import type { ElementKind, ElementSegment } from './access-types.js';

/** Functions that look at an entity without reading its properties. */
export const IDENTITY_FUNCTIONS = new Set(['id', 'elementid', 'labels', 'type', 'count', 'exists', 'isempty', 'size', 'length']);

/** Functions that read every property of an entity argument. */
export const ALL_PROPERTY_FUNCTIONS = new Set(['properties', 'keys', 'values']);

/** The alternatives a label expression allows: each an array of labels a match carries (null = any). */
function labelAlternatives(expression: LabelExpression | null): (readonly string[] | null)[] {
  if (expression === null) return [null];
  switch (expression.kind) {
    case Kind.LabelName:
      return [[expression.name]];
    case Kind.LabelOr:
      return [...labelAlternatives(expression.left), ...labelAlternatives(expression.right)];
    case Kind.LabelAnd: {
      const out: (readonly string[] | null)[] = [];
      for (const left of labelAlternatives(expression.left)) {
        for (const right of labelAlternatives(expression.right)) {
          out.push(left === null ? right : right === null ? left : [...left, ...right]);
        }
      }
      return out;
    }
    default:
      return [null];
  }
}

/** The segments a node or relationship pattern matches (one per label alternative). */
export function segmentsOf(pattern: NodePattern | RelationshipPattern): ElementSegment[] {
  const element: ElementKind = pattern.kind === Kind.NodePattern ? 'NODE' : 'RELATIONSHIP';
  const labels = pattern.kind === Kind.NodePattern ? pattern.labels : pattern.types;
  return labelAlternatives(labels).map((names) => ({ element, names }));
}

/** Any node. */
export const ANY_NODE: ElementSegment = { element: 'NODE', names: null };
/** Any relationship. */
export const ANY_RELATIONSHIP: ElementSegment = { element: 'RELATIONSHIP', names: null };

function key(segment: ElementSegment): string {
  return `${segment.element}:${segment.names === null ? '*' : [...segment.names].sort().join('&')}`;
}

/** Where each variable name came from: the segments of the patterns that bind it. */
export class Origins {
  readonly byName = new Map<string, Map<string, ElementSegment>>();
  /** Every segment the statement traverses (what an untraceable variable may stand for). */
  readonly traversed = new Map<string, ElementSegment>();

  bind(name: string, segments: readonly ElementSegment[]): boolean {
    let known = this.byName.get(name);
    if (!known) this.byName.set(name, (known = new Map<string, ElementSegment>()));
    let grew = false;
    for (const segment of segments) {
      if (!known.has(key(segment))) {
        known.set(key(segment), segment);
        grew = true;
      }
    }
    return grew;
  }

  /** The segments a variable may stand for. */
  of(name: string): ElementSegment[] {
    const known = this.byName.get(name);
    return known ? [...known.values()] : [...this.traversed.values()];
  }

  known(name: string): boolean {
    return this.byName.has(name);
  }
}

/** Every variable name under `node`. */
export function variableNames(node: AstNode): string[] {
  const names: string[] = [];
  visit(node, { enter: (n) => void (n.kind === Kind.Variable && names.push(n.name)) });
  return names;
}

/**
 * Variables whose entities an expression passes on (`n`, `collect(n)`, `[a, b]`, `nodes(p)`), as
 * opposed to values computed from them (`n.name`, `id(n)`, `properties(n)`).
 */
export function carriedVariables(expression: AstNode): string[] {
  const names: string[] = [];
  const walk = (node: AstNode): void => {
    if (node.kind === Kind.Variable) names.push(node.name);
    else if (node.kind === Kind.PropertyAccess && node.object.kind === Kind.Variable) return;
    else if (
      node.kind === Kind.FunctionCall &&
      (IDENTITY_FUNCTIONS.has(node.name.toLowerCase()) || ALL_PROPERTY_FUNCTIONS.has(node.name.toLowerCase()))
    )
      return;
    else for (const child of childrenOf(node)) walk(child);
  };
  walk(expression);
  return names;
}

/** The node and relationship patterns a CREATE or MERGE writes (not those of nested subqueries). */
export function writtenPatterns(pattern: Pattern | PatternPart): (NodePattern | RelationshipPattern)[] {
  const out: (NodePattern | RelationshipPattern)[] = [];
  const path = (p: PathPattern): void => {
    for (const element of p.elements) {
      if (element.kind === Kind.QuantifiedPath) path(element.pattern);
      else out.push(element);
    }
  };
  for (const part of pattern.kind === Kind.Pattern ? pattern.parts : [pattern])
    path(part.element.kind === Kind.ShortestPath ? part.element.pattern : part.element);
  return out;
}

/** Pass 1: pattern variables, then aliases and UNWINDs of known variables, to a fixed point. */
export function collectOrigins(statement: Statement): Origins {
  const origins = new Origins();
  const flows: { target: string; sources: string[] }[] = [];
  const created = new Set<AstNode>();
  visit(statement, {
    enter(node) {
      if (node.kind === Kind.Create) for (const written of writtenPatterns(node.pattern)) created.add(written);
      if (node.kind === Kind.NodePattern || node.kind === Kind.RelationshipPattern) {
        const segments = segmentsOf(node);
        if (!created.has(node)) for (const segment of segments) origins.traversed.set(key(segment), segment);
        if (node.variable) origins.bind(node.variable.name, segments);
      } else if (node.kind === Kind.ProjectionItem && node.alias !== null) {
        flows.push({ target: node.alias.name, sources: carriedVariables(node.expression) });
      } else if (node.kind === Kind.Unwind) {
        flows.push({ target: node.variable.name, sources: carriedVariables(node.expression) });
      } else if (node.kind === Kind.PatternPart && node.variable !== null) {
        // A path exposes every element of its pattern, named or not.
        origins.bind(node.variable.name, writtenPatterns(node).flatMap(segmentsOf));
      }
      return undefined;
    },
  });
  for (let changed = true, rounds = 0; changed && rounds < 16; rounds++) {
    changed = false;
    for (const flow of flows) {
      const segments = flow.sources.filter((s) => s !== flow.target && origins.known(s)).flatMap((s) => origins.of(s));
      if (segments.length > 0 && origins.bind(flow.target, segments)) changed = true;
    }
  }
  return origins;
}
