/**
 * Evaluates label expressions (`:A:B`, `:A|B`, `:!A`, `:%`, `:$(expr)`) against a node's labels
 * or a relationship's type.
 */
import { Kind } from '../../ast/index.js';
import type { DynamicLabel, LabelExpression } from '../../ast/index.js';

/**
 * True when `labels` satisfy `expression`. `resolve` gives the names of dynamic labels for the
 * current row (an expression with dynamic labels and no resolver matches nothing).
 */
export function labelsMatch(
  expression: LabelExpression,
  labels: readonly string[],
  resolve?: (label: DynamicLabel) => readonly string[],
): boolean {
  switch (expression.kind) {
    case Kind.DynamicLabel: {
      if (resolve === undefined) return false;
      const names = resolve(expression);
      return expression.quantifier === 'any' ? names.some((n) => labels.includes(n)) : names.every((n) => labels.includes(n));
    }
    case Kind.LabelName:
      return labels.includes(expression.name);
    case Kind.LabelWildcard:
      return labels.length > 0;
    case Kind.LabelNot:
      return !labelsMatch(expression.operand, labels, resolve);
    case Kind.LabelAnd:
      return labelsMatch(expression.left, labels, resolve) && labelsMatch(expression.right, labels, resolve);
    case Kind.LabelOr:
      return labelsMatch(expression.left, labels, resolve) || labelsMatch(expression.right, labels, resolve);
  }
}

/** The plain names of a conjunction `:A:B` / `A&B`, or null when the expression is more complex. */
export function conjunctionNames(expression: LabelExpression): string[] | null {
  if (expression.kind === Kind.LabelName) return [expression.name];
  if (expression.kind === Kind.LabelAnd) {
    const left = conjunctionNames(expression.left);
    const right = conjunctionNames(expression.right);
    return left && right ? [...left, ...right] : null;
  }
  return null;
}

/** The plain names of a disjunction `:A|B` (relationship types), or null when more complex. */
export function disjunctionNames(expression: LabelExpression): string[] | null {
  if (expression.kind === Kind.LabelName) return [expression.name];
  if (expression.kind === Kind.LabelOr) {
    const left = disjunctionNames(expression.left);
    const right = disjunctionNames(expression.right);
    return left && right ? [...left, ...right] : null;
  }
  return null;
}
