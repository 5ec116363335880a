import type { Expression, Variable } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { CypherFunction } from '../functions/index.js';
import { commonType, elementOf, isList, listOf, type StaticType } from './static-types.js';

/** Result types of built-in functions whose type never depends on the arguments. */
const functionResultTypes: ReadonlyMap<string, StaticType> = new Map<string, StaticType>([
  ['count', 'Integer'],
  ['size', 'Integer'],
  ['length', 'Integer'],
  ['id', 'Integer'],
  ['tostring', 'String'],
  ['tointeger', 'Integer'],
  ['tofloat', 'Float'],
  ['toboolean', 'Boolean'],
  ['type', 'String'],
  ['labels', listOf('String')],
  ['keys', listOf('String')],
  ['nodes', listOf('Node')],
  ['relationships', listOf('Relationship')],
  ['startnode', 'Node'],
  ['endnode', 'Node'],
  ['properties', 'Map'],
  ['tolower', 'String'],
  ['toupper', 'String'],
  ['trim', 'String'],
  ['ltrim', 'String'],
  ['rtrim', 'String'],
  ['substring', 'String'],
  ['replace', 'String'],
  ['split', listOf('String')],
  ['reverse', 'Any'],
  ['range', listOf('Integer')],
  ['collect', listOf('Any')],
  ['elementid', 'String'],
  ['rand', 'Float'],
  ['date', 'Temporal'],
  ['datetime', 'Temporal'],
  ['localdatetime', 'Temporal'],
  ['time', 'Temporal'],
  ['localtime', 'Temporal'],
  ['duration', 'Duration'],
  ['point', 'Point'],
]);

const arithmetic = new Set(['+', '-', '*', '/', '%', '^']);

/**
 * Infers the static type of `expression`. `typeOfVariable` gives the binder's type for a
 * variable occurrence. Anything not evident is `Any`.
 */
export function inferType(
  expression: Expression,
  typeOfVariable: (variable: Variable) => StaticType,
  lookup: (name: string) => CypherFunction | undefined,
): StaticType {
  const infer = (e: Expression): StaticType => inferType(e, typeOfVariable, lookup);
  switch (expression.kind) {
    case Kind.IntegerLiteral:
      return 'Integer';
    case Kind.FloatLiteral:
      return 'Float';
    case Kind.StringLiteral:
      return 'String';
    case Kind.BooleanLiteral:
      return 'Boolean';
    case Kind.NullLiteral:
      return 'Null';
    case Kind.ListLiteral:
      return listOf(expression.items.length === 0 ? 'Any' : commonType(expression.items.map(infer)));
    case Kind.MapLiteral:
    case Kind.MapProjection:
      return 'Map';
    case Kind.Variable:
      return typeOfVariable(expression);
    case Kind.CountStar:
    case Kind.CountSubquery:
      return 'Integer';
    case Kind.IsNull:
    case Kind.TypePredicate:
    case Kind.LabelPredicate:
    case Kind.ListPredicate:
    case Kind.ExistsSubquery:
      return 'Boolean';
    case Kind.UnaryOperation: {
      if (expression.operator === 'NOT') return 'Boolean';
      const operand = infer(expression.operand);
      return operand === 'Integer' || operand === 'Float' ? operand : 'Any';
    }
    case Kind.BinaryOperation: {
      if (!arithmetic.has(expression.operator) && expression.operator !== '||') return 'Boolean';
      return arithmeticResult(expression.operator, infer(expression.left), infer(expression.right));
    }
    case Kind.Subscript: {
      const object = infer(expression.object);
      return isList(object) ? object.list : 'Any';
    }
    case Kind.Slice: {
      const object = infer(expression.object);
      return isList(object) ? object : 'Any';
    }
    case Kind.ListComprehension:
      return listOf(expression.projection ? infer(expression.projection) : elementOf(infer(expression.source)));
    case Kind.PatternComprehension:
      return listOf(infer(expression.projection));
    case Kind.CollectSubquery:
      return listOf('Any');
    case Kind.ShortestPath:
      return expression.all ? listOf('Path') : 'Path';
    case Kind.Case:
      return commonType([
        ...expression.alternatives.map((a) => infer(a.then)),
        expression.otherwise ? infer(expression.otherwise) : 'Null',
      ]);
    case Kind.FunctionCall: {
      if (expression.namespace.length > 0) return 'Any';
      const name = expression.name.toLowerCase();
      if ((name === 'head' || name === 'last') && expression.args.length === 1) return elementOf(infer(expression.args[0]!));
      if (name === 'tail' && expression.args.length === 1) return infer(expression.args[0]!);
      return lookup(name) === undefined ? 'Any' : (functionResultTypes.get(name) ?? 'Any');
    }
    default:
      return 'Any';
  }
}

function arithmeticResult(operator: string, left: StaticType, right: StaticType): StaticType {
  if (operator === '^') return isNumeric(left) && isNumeric(right) ? 'Float' : 'Any';
  if (operator === '+' || operator === '||') {
    if (isList(left)) return isList(right) ? listOf(commonType([left.list, right.list])) : listOf(commonType([left.list, right]));
    if (isList(right)) return listOf(commonType([left, right.list]));
    if (left === 'String' || right === 'String') return 'String';
  }
  if (left === 'Integer' && right === 'Integer') return 'Integer';
  if ((left === 'Float' || right === 'Float') && isNumeric(left) && isNumeric(right)) return 'Float';
  if (isNumeric(left) && isNumeric(right)) return 'Number';
  return 'Any';
}

function isNumeric(type: StaticType): boolean {
  return type === 'Integer' || type === 'Float' || type === 'Number';
}
