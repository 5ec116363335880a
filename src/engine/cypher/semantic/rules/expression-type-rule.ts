import { CypherTypeError } from '../../../errors/index.js';
import type { Expression } from '../../ast/expressions.js';
import { Kind } from '../../ast/kinds.js';
import type { ValidationContext } from '../context.js';
import { isList, isOpen, typeToString, type StaticType } from '../static-types.js';
import type { ValidationRule } from './rule.js';

const predicateOwners = new Set<Kind>([
  Kind.Match,
  Kind.With,
  Kind.NodePattern,
  Kind.RelationshipPattern,
  Kind.QuantifiedPath,
  Kind.ListComprehension,
  Kind.PatternComprehension,
  Kind.ListPredicate,
  Kind.SubqueryPattern,
  Kind.CallProcedure,
]);

/** Types that can never take part in arithmetic. */
function isNonArithmetic(type: StaticType): boolean {
  return (
    type === 'String' ||
    type === 'Boolean' ||
    type === 'Map' ||
    type === 'Node' ||
    type === 'Relationship' ||
    type === 'Path' ||
    isList(type)
  );
}

/**
 * Operands of a definite wrong type (`InvalidArgumentType`): non-boolean operands of AND / OR /
 * XOR / NOT and WHERE, arithmetic on strings, booleans, maps or graph elements, property access on
 * values without properties (a CypherTypeError; on a path a syntax error, as in Neo4j), indexing a
 * scalar or indexing a list with a non-integer (CypherTypeError).
 */
export const ExpressionTypeRule: ValidationRule = (context) => ({
  enter(node) {
    if (predicateOwners.has(node.kind)) {
      const where = (node as { where?: Expression | null }).where;
      if (where) checkBoolean(context, where);
    }
    switch (node.kind) {
      case Kind.BinaryOperation:
        if (node.operator === 'AND' || node.operator === 'OR' || node.operator === 'XOR') {
          checkBoolean(context, node.left);
          checkBoolean(context, node.right);
        } else if (node.operator === '+') {
          const left = context.typeOf(node.left);
          const right = context.typeOf(node.right);
          if (!isList(left) && !isList(right)) {
            for (const [side, type] of [
              [node.left, left],
              [node.right, right],
            ] as const) {
              if (type === 'Boolean' || type === 'Map' || type === 'Node' || type === 'Relationship' || type === 'Path')
                report(context, side, type, 'a value that can be added');
            }
          }
        } else if (
          node.operator === '-' ||
          node.operator === '*' ||
          node.operator === '/' ||
          node.operator === '%' ||
          node.operator === '^'
        ) {
          for (const side of [node.left, node.right]) {
            const type = context.typeOf(side);
            if (isNonArithmetic(type)) report(context, side, type, 'Float, Integer or Duration');
          }
        }
        return;
      case Kind.UnaryOperation:
        if (node.operator === 'NOT') checkBoolean(context, node.operand);
        else {
          const type = context.typeOf(node.operand);
          if (isNonArithmetic(type)) report(context, node.operand, type, 'Float, Integer or Duration');
        }
        return;
      case Kind.PropertyAccess: {
        const type = context.typeOf(node.object);
        if (type === 'Path') report(context, node.object, type, 'Map, Node or Relationship');
        else if (type === 'Boolean' || type === 'String' || type === 'Integer' || type === 'Float' || type === 'Number' || isList(type)) {
          context.report(
            node.object,
            `Type mismatch: expected Map, Node, Relationship, Point or temporal value but was ${typeToString(type)}`,
            'InvalidArgumentType',
            CypherTypeError,
          );
        }
        return;
      }
      case Kind.Subscript: {
        const object = context.typeOf(node.object);
        const index = context.typeOf(node.index);
        if (object === 'Boolean' || object === 'Integer' || object === 'Float' || object === 'Number' || object === 'String') {
          context.report(
            node.object,
            `Type mismatch: expected List, Map, Node or Relationship but was ${object}`,
            'InvalidArgumentType',
            CypherTypeError,
          );
        } else if (isList(object) && (index === 'Boolean' || index === 'Float' || index === 'String' || index === 'Map' || isList(index))) {
          context.report(
            node.index,
            `Type mismatch: a list index must be an Integer but was ${typeToString(index)}`,
            'InvalidArgumentType',
            CypherTypeError,
          );
        }
        return;
      }
      default:
        return;
    }
  },
});

function checkBoolean(context: ValidationContext, expression: Expression): void {
  const type = context.typeOf(expression);
  if (!isOpen(type) && type !== 'Boolean') report(context, expression, type, 'Boolean');
}

function report(context: ValidationContext, expression: Expression, type: StaticType, expected: string): void {
  context.report(expression, `Type mismatch: expected ${expected} but was ${typeToString(type)}`, 'InvalidArgumentType');
}
