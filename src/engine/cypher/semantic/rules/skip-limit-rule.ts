import type { Expression } from '../../ast/expressions.js';
import { Kind } from '../../ast/kinds.js';
import { isConstant } from '../ast-utils.js';
import type { ValidationContext } from '../context.js';
import type { ValidationRule } from './rule.js';

/**
 * SKIP and LIMIT take a constant non-negative integer: variables are `NonConstantExpression`,
 * float literals `InvalidArgumentType`, negative literals `NegativeIntegerArgument`.
 */
export const SkipLimitRule: ValidationRule = (context) => ({
  enter(node) {
    if (node.kind !== Kind.ProjectionBody && node.kind !== Kind.Show) return;
    if (node.skip) check(context, node.skip, 'SKIP');
    if (node.limit) check(context, node.limit, 'LIMIT');
  },
});

function check(context: ValidationContext, expression: Expression, clause: string): void {
  if (!isConstant(expression)) {
    context.report(expression, `It is not allowed to refer to variables in ${clause}`, 'NonConstantExpression');
    return;
  }
  const type = context.typeOf(expression);
  if (type === 'Float' || type === 'String' || type === 'Boolean' || type === 'Map' || typeof type === 'object') {
    context.report(
      expression,
      `Invalid input. '${clause}' expects an integer value, got ${typeof type === 'object' ? 'List' : type}`,
      'InvalidArgumentType',
    );
    return;
  }
  if (expression.kind === Kind.IntegerLiteral && expression.value < 0n) {
    context.report(
      expression,
      `Invalid input. '${expression.value}' is not a valid value. Must be a non-negative integer.`,
      'NegativeIntegerArgument',
    );
  }
}
