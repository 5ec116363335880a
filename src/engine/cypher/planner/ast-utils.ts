/**
 * Small AST helpers for the planner: free variables, structural equality, substitution, and
 * builders for the predicates the planner synthesizes (label tests, property equality).
 */
import { Kind } from '../ast/index.js';
import type { Expression, LabelExpression, Variable } from '../ast/index.js';
import { isAggregate } from '../functions/index.js';

/** Every `Variable` name mentioned anywhere below `node` (an over-approximation of free variables). */
export function mentionedVariables(node: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) mentionedVariables(item, into);
  } else if (typeof node === 'object' && node !== null) {
    const record = node as Record<string, unknown>;
    if (record.kind === Kind.Variable && typeof record.name === 'string') into.add(record.name);
    for (const [key, value] of Object.entries(record)) if (key !== 'loc') mentionedVariables(value, into);
  }
  return into;
}

/** Structural equality of two AST fragments, ignoring source locations and projection text. */
export function astEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || typeof a !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => astEqual(x, b[i]));
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const key of keys) {
    if (key === 'loc' || key === 'text') continue;
    if (!astEqual(ra[key], rb[key])) return false;
  }
  return true;
}

/**
 * Rebuilds `expr`, replacing each sub-expression for which `replace` returns a value. Does not
 * descend into replaced nodes.
 */
export function substitute<T>(node: T, replace: (n: Expression) => Expression | undefined): T {
  if (Array.isArray(node)) return node.map((item: unknown) => substitute(item, replace)) as T;
  if (typeof node !== 'object' || node === null) return node;
  const record = node as Record<string, unknown>;
  if (typeof record.kind === 'string') {
    const replaced = replace(node as unknown as Expression);
    if (replaced !== undefined) return replaced as unknown as T;
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) out[key] = key === 'loc' ? value : substitute(value, replace);
  return out as T;
}

/** True for an aggregate function call or `count(*)` (the node itself, not its children). */
export function isAggregateCall(expr: Expression): boolean {
  if (expr.kind === Kind.CountStar) return true;
  return expr.kind === Kind.FunctionCall && isAggregate([...expr.namespace, expr.name].join('.'));
}

/** True when an aggregate call occurs in `expr` outside nested subqueries. */
export function containsAggregate(expr: unknown): boolean {
  if (Array.isArray(expr)) return expr.some(containsAggregate);
  if (typeof expr !== 'object' || expr === null) return false;
  const record = expr as Record<string, unknown>;
  if (record.kind === Kind.ExistsSubquery || record.kind === Kind.CountSubquery || record.kind === Kind.CollectSubquery) return false;
  if (typeof record.kind === 'string' && isAggregateCall(expr as Expression)) return true;
  return Object.entries(record).some(([key, value]) => key !== 'loc' && containsAggregate(value));
}

/** `name` as a variable expression. */
export function variable(name: string): Variable {
  return { kind: Kind.Variable, name };
}

/** `subject.key = value`. */
export function propertyEquals(subject: string, key: string, value: Expression): Expression {
  return {
    kind: Kind.BinaryOperation,
    operator: '=',
    left: { kind: Kind.PropertyAccess, object: variable(subject), property: key },
    right: value,
  };
}

/** `subject:labels`. */
export function hasLabels(subject: string, labels: LabelExpression): Expression {
  return { kind: Kind.LabelPredicate, operand: variable(subject), labels };
}

/** Splits `a AND b AND c` into its conjuncts. */
export function conjuncts(expr: Expression): Expression[] {
  if (expr.kind === Kind.BinaryOperation && expr.operator === 'AND') return [...conjuncts(expr.left), ...conjuncts(expr.right)];
  return [expr];
}
