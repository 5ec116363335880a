/**
 * Dynamic labels and relationship types (`:$(expr)`, `:$all(expr)`, `:$any(expr)`, Neo4j 5.26):
 * the value of `expr` must be a STRING or a LIST<STRING>; each evaluation gives the names.
 */
import { ArgumentError, CypherTypeError } from '../../../errors/index.js';
import { typeName } from '../../../values/index.js';
import type { CypherValue } from '../../../values/types.js';
import { Kind } from '../../ast/index.js';
import type { DynamicLabel, LabelExpression } from '../../ast/index.js';
import type { ExecutionContext } from '../execution-context.js';
import type { Row } from '../row.js';
import type { Evaluator } from './evaluator.js';

/** What a dynamic label designates, for messages. */
export type DynamicLabelUse = 'label' | 'relationship type';

/** The names a dynamic label's value gives; throws TypeError for anything but STRING / LIST<STRING>. */
export function dynamicNames(value: CypherValue, use: DynamicLabelUse): string[] {
  const names = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;
  if (names === null) {
    throw new CypherTypeError(
      `A dynamic ${use} must be a STRING or a LIST<STRING>, but was ${value === null ? 'NULL' : typeName(value)}.`,
      {
        detail: 'InvalidArgumentType',
      },
    );
  }
  for (const name of names) {
    if (name === '') throw new ArgumentError(`A dynamic ${use} must not be an empty string.`);
  }
  return names;
}

/** Resolves the dynamic parts of a label expression for one row. */
export type DynamicResolver = (label: DynamicLabel) => readonly string[];

/** Every dynamic label inside `expression`, in order. */
export function dynamicLabelsOf(expression: LabelExpression | null): DynamicLabel[] {
  if (expression === null) return [];
  switch (expression.kind) {
    case Kind.DynamicLabel:
      return [expression];
    case Kind.LabelNot:
      return dynamicLabelsOf(expression.operand);
    case Kind.LabelAnd:
    case Kind.LabelOr:
      return [...dynamicLabelsOf(expression.left), ...dynamicLabelsOf(expression.right)];
    default:
      return [];
  }
}

/**
 * Compiles the dynamic labels of `expression`; returns a function giving the row's resolver,
 * or null when the expression has none.
 */
export function compileDynamicResolver(
  expression: LabelExpression | null,
  compile: (label: DynamicLabel) => Evaluator,
  use: DynamicLabelUse,
): ((row: Row, ctx: ExecutionContext) => DynamicResolver) | null {
  const dynamic = dynamicLabelsOf(expression);
  if (dynamic.length === 0) return null;
  const evaluators = new Map(dynamic.map((label) => [label, compile(label)]));
  return (row, ctx) => {
    const cache = new Map<DynamicLabel, readonly string[]>();
    return (label) => {
      let names = cache.get(label);
      if (names === undefined) {
        names = dynamicNames(evaluators.get(label)!(row, ctx), use);
        cache.set(label, names);
      }
      return names;
    };
  };
}

/** The static names and dynamic parts of a conjunction `:A:$(x)&B`, or null for other shapes. */
export function conjunctionParts(expression: LabelExpression): { names: string[]; dynamic: DynamicLabel[] } | null {
  switch (expression.kind) {
    case Kind.LabelName:
      return { names: [expression.name], dynamic: [] };
    case Kind.DynamicLabel:
      return { names: [], dynamic: [expression] };
    case Kind.LabelAnd: {
      const left = conjunctionParts(expression.left);
      const right = conjunctionParts(expression.right);
      return left && right ? { names: [...left.names, ...right.names], dynamic: [...left.dynamic, ...right.dynamic] } : null;
    }
    default:
      return null;
  }
}

/** Evaluates dynamic labels of a write (CREATE, MERGE, SET, REMOVE): all their names, in order. */
export function compileWriteLabels(
  dynamic: readonly DynamicLabel[],
  compile: (label: DynamicLabel) => Evaluator,
  use: DynamicLabelUse,
): ((row: Row, ctx: ExecutionContext) => string[]) | null {
  if (dynamic.length === 0) return null;
  const evaluators = dynamic.map((label) => compile(label));
  return (row, ctx) => evaluators.flatMap((evaluate) => dynamicNames(evaluate(row, ctx), use));
}
