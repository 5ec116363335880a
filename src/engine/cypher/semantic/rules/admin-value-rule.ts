import type { Expression } from '../../ast/expressions.js';
import { Kind } from '../../ast/kinds.js';
import type { ValidationContext } from '../context.js';
import type { ValidationRule } from './rule.js';

/**
 * Values of administration commands (alias PROPERTIES, ALTER DATABASE SET LIMIT / SET OPTION)
 * are constants: literals, parameters, lists and maps of them and signed numbers. A variable is
 * `UndefinedVariable` (no variable is in scope in a command); anything else computed is
 * `InvalidArgumentType`.
 */
export const AdminValueRule: ValidationRule = (context) => ({
  enter(node) {
    if ((node.kind === Kind.CreateAlias || node.kind === Kind.AlterAlias) && node.properties !== null) check(context, node.properties);
    else if (node.kind === Kind.DatabaseSetting && node.value !== null && node.category !== 'ACCESS') check(context, node.value);
  },
});

function check(context: ValidationContext, expression: Expression): void {
  switch (expression.kind) {
    case Kind.IntegerLiteral:
    case Kind.FloatLiteral:
    case Kind.StringLiteral:
    case Kind.BooleanLiteral:
    case Kind.NullLiteral:
    case Kind.Parameter:
      return;
    case Kind.ListLiteral:
      for (const item of expression.items) check(context, item);
      return;
    case Kind.MapLiteral:
      for (const entry of expression.entries) check(context, entry.value);
      return;
    case Kind.UnaryOperation:
      if (expression.operator !== 'NOT') {
        check(context, expression.operand);
        return;
      }
      break;
    case Kind.Variable:
      context.report(expression, `Variable \`${expression.name}\` not defined`, 'UndefinedVariable');
      return;
    default:
      break;
  }
  context.report(expression, 'Administration commands accept only literal values and parameters here', 'InvalidArgumentType');
}
