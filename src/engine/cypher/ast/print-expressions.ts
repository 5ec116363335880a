import type { CypherTypeNode, Expression, MapLiteral, MapProjectionSelector, Parameter, SubqueryBody } from './expressions.js';
import { Kind } from './kinds.js';
import type {
  DynamicLabel,
  LabelExpression,
  NodePattern,
  PathPattern,
  PatternPart,
  Pattern,
  Range,
  RelationshipPattern,
} from './patterns.js';
import type { Query } from './statements.js';

/** Prints a query; supplied by printer.ts (subquery expressions contain queries). */
export type QueryPrinter = (query: Query) => string;

/** Words that must be backtick-quoted when used as a name, so the printed text reparses the same. */
const reservedWords = new Set([
  'ALL',
  'AND',
  'ANY',
  'AS',
  'ASC',
  'ASCENDING',
  'BY',
  'CALL',
  'CASE',
  'COLLECT',
  'CONTAINS',
  'COUNT',
  'CREATE',
  'DELETE',
  'DESC',
  'DESCENDING',
  'DETACH',
  'DISTINCT',
  'ELSE',
  'END',
  'ENDS',
  'EXISTS',
  'FALSE',
  'FINISH',
  'FOREACH',
  'IN',
  'IS',
  'LIMIT',
  'LOAD',
  'MATCH',
  'MERGE',
  'NODETACH',
  'NONE',
  'NOT',
  'NULL',
  'OFFSET',
  'ON',
  'OPTIONAL',
  'OR',
  'ORDER',
  'REDUCE',
  'REMOVE',
  'RETURN',
  'SET',
  'SHORTEST',
  'SHORTESTPATH',
  'ALLSHORTESTPATHS',
  'SINGLE',
  'SKIP',
  'STARTS',
  'THEN',
  'TRUE',
  'TYPED',
  'UNION',
  'UNWIND',
  'USE',
  'USING',
  'WHEN',
  'WHERE',
  'WITH',
  'XOR',
  'YIELD',
]);

/** A symbolic name, backtick-quoted when needed. */
export function printName(name: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !reservedWords.has(name.toUpperCase())) return name;
  return '`' + name.replace(/`/g, '``') + '`';
}

/**
 * A property key, label, type or field name: these positions accept keywords, so only names that
 * are not identifier-shaped are quoted.
 */
export function printKey(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : '`' + name.replace(/`/g, '``') + '`';
}

/** Function names that would parse as a special form when followed by `(`. */
const specialForms = new Set([
  'ALL',
  'ANY',
  'NONE',
  'SINGLE',
  'REDUCE',
  'SHORTESTPATH',
  'ALLSHORTESTPATHS',
  'CASE',
  'NOT',
  'TRUE',
  'FALSE',
  'NULL',
]);

/** A function name part, quoted only where the unquoted name would parse differently. */
export function printFunctionName(name: string): string {
  return specialForms.has(name.toUpperCase()) ? '`' + name.replace(/`/g, '``') + '`' : printKey(name);
}

/** A string literal in single quotes with Cypher escapes. */
export function printString(value: string): string {
  let out = "'";
  for (const char of value) {
    switch (char) {
      case '\\':
        out += '\\\\';
        break;
      case "'":
        out += "\\'";
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\b':
        out += '\\b';
        break;
      case '\f':
        out += '\\f';
        break;
      default: {
        const code = char.codePointAt(0)!;
        out += code < 0x20 ? '\\u' + code.toString(16).padStart(4, '0') : char;
      }
    }
  }
  return out + "'";
}

/** `-x`, but `- -1` rather than `--1`. */
function spaced(operator: string, operand: string): string {
  return operand.startsWith('-') || operand.startsWith('+') ? `${operator} ${operand}` : `${operator}${operand}`;
}

function printFloat(value: number): string {
  const text = String(value);
  return /[.eE]/.test(text) ? text : `${text}.0`;
}

/** Binding strength of an expression, higher binds tighter (mirrors the parser's layers). */
function precedence(expression: Expression): number {
  switch (expression.kind) {
    case Kind.BinaryOperation:
      switch (expression.operator) {
        case 'OR':
          return 1;
        case 'XOR':
          return 2;
        case 'AND':
          return 3;
        case '=':
        case '<>':
        case '<':
        case '>':
        case '<=':
        case '>=':
          return 5;
        case 'STARTS WITH':
        case 'ENDS WITH':
        case 'CONTAINS':
        case 'IN':
        case '=~':
          return 6;
        case '+':
        case '-':
        case '||':
          return 7;
        case '*':
        case '/':
        case '%':
          return 8;
        case '^':
          return 9;
      }
      break;
    case Kind.UnaryOperation:
      return expression.operator === 'NOT' ? 4 : 10;
    case Kind.IsNull:
    case Kind.TypePredicate:
      return 6;
    case Kind.IntegerLiteral:
      return expression.value < 0n ? 10 : 12;
    case Kind.PropertyAccess:
    case Kind.Subscript:
    case Kind.Slice:
    case Kind.LabelPredicate:
      return 11;
    default:
      return 12;
  }
  return 12;
}

/** Prints expressions and patterns; `printQuery` prints nested queries. */
export class ExpressionPrinter {
  constructor(private readonly printQuery: QueryPrinter) {}

  /** Prints `expression`, parenthesized when it binds looser than `minimum`. */
  expression(expression: Expression, minimum = 0): string {
    const text = this.bare(expression);
    return precedence(expression) < minimum ? `(${text})` : text;
  }

  private bare(e: Expression): string {
    switch (e.kind) {
      case Kind.IntegerLiteral:
        return e.value.toString();
      case Kind.FloatLiteral:
        return printFloat(e.value);
      case Kind.StringLiteral:
        return printString(e.value);
      case Kind.BooleanLiteral:
        return e.value ? 'true' : 'false';
      case Kind.NullLiteral:
        return 'null';
      case Kind.ListLiteral:
        return `[${e.items.map((item) => this.expression(item)).join(', ')}]`;
      case Kind.MapLiteral:
        return this.map(e);
      case Kind.Parameter:
        return this.parameter(e);
      case Kind.Variable:
        return printName(e.name);
      case Kind.PropertyAccess:
        return `${this.expression(e.object, 11)}.${printKey(e.property)}`;
      case Kind.Subscript:
        return `${this.expression(e.object, 11)}[${this.expression(e.index)}]`;
      case Kind.Slice:
        return `${this.expression(e.object, 11)}[${e.from ? this.expression(e.from) : ''}..${e.to ? this.expression(e.to) : ''}]`;
      case Kind.FunctionCall: {
        const name = [...e.namespace, e.name].map(printFunctionName).join('.');
        return `${name}(${e.distinct ? 'DISTINCT ' : ''}${e.args.map((arg) => this.expression(arg)).join(', ')})`;
      }
      case Kind.CountStar:
        return 'count(*)';
      case Kind.BinaryOperation:
        return this.binary(e.operator, e.left, e.right);
      case Kind.UnaryOperation:
        if (e.operator === 'NOT') return `NOT ${this.expression(e.operand, 4)}`;
        return spaced(e.operator, this.expression(e.operand, 10));
      case Kind.IsNull:
        return `${this.expression(e.operand, 6)} IS ${e.negated ? 'NOT ' : ''}NULL`;
      case Kind.TypePredicate:
        return `${this.expression(e.operand, 6)} IS ${e.negated ? 'NOT ' : ''}:: ${this.type(e.type)}`;
      case Kind.LabelPredicate: {
        // `(n:A):B` keeps two predicates apart; `n:A:B` would read back as one conjunction.
        const operand = e.operand.kind === Kind.LabelPredicate ? `(${this.bare(e.operand)})` : this.expression(e.operand, 11);
        return `${operand}:${this.labels(e.labels, true)}`;
      }
      case Kind.Case: {
        const parts = ['CASE'];
        if (e.subject) parts.push(this.expression(e.subject));
        for (const alternative of e.alternatives)
          parts.push(`WHEN ${this.expression(alternative.when)} THEN ${this.expression(alternative.then)}`);
        if (e.otherwise) parts.push(`ELSE ${this.expression(e.otherwise)}`);
        return parts.concat('END').join(' ');
      }
      case Kind.ListComprehension:
        return `[${printName(e.variable.name)} IN ${this.expression(e.source)}${e.where ? ` WHERE ${this.expression(e.where)}` : ''}${e.projection ? ` | ${this.expression(e.projection)}` : ''}]`;
      case Kind.PatternComprehension:
        return `[${e.variable ? `${printName(e.variable.name)} = ` : ''}${this.path(e.pattern)}${e.where ? ` WHERE ${this.expression(e.where)}` : ''} | ${this.expression(e.projection)}]`;
      case Kind.ListPredicate:
        return `${e.quantifier}(${printName(e.variable.name)} IN ${this.expression(e.source)}${e.where ? ` WHERE ${this.expression(e.where)}` : ''})`;
      case Kind.Reduce:
        return `reduce(${printName(e.accumulator.name)} = ${this.expression(e.init)}, ${printName(e.variable.name)} IN ${this.expression(e.source)} | ${this.expression(e.expression)})`;
      case Kind.MapProjection:
        return `${printName(e.variable.name)} {${e.selectors.map((s) => this.selector(s)).join(', ')}}`;
      case Kind.PatternExpression:
        return this.path(e.pattern);
      case Kind.ShortestPath:
        return `${e.all ? 'allShortestPaths' : 'shortestPath'}(${this.path(e.pattern)})`;
      case Kind.ExistsSubquery:
        return `EXISTS { ${this.subqueryBody(e.body)} }`;
      case Kind.CountSubquery:
        return `COUNT { ${this.subqueryBody(e.body)} }`;
      case Kind.CollectSubquery:
        return `COLLECT { ${this.printQuery(e.body)} }`;
    }
  }

  private binary(operator: string, left: Expression, right: Expression): string {
    const level = precedence({ kind: Kind.BinaryOperation, operator, left, right } as Expression);
    // Comparisons do not chain in the AST (a chain is desugared to AND), so both sides bind tighter.
    const leftMinimum = level === 5 ? 6 : level;
    return `${this.expression(left, leftMinimum)} ${operator} ${this.expression(right, level + 1)}`;
  }

  parameter(parameter: Parameter): string {
    return '$' + (/^[0-9]+$/.test(parameter.name) ? parameter.name : printName(parameter.name));
  }

  map(map: MapLiteral): string {
    return `{${map.entries.map((entry) => `${printKey(entry.key)}: ${this.expression(entry.value)}`).join(', ')}}`;
  }

  private selector(selector: MapProjectionSelector): string {
    switch (selector.kind) {
      case Kind.PropertySelector:
        return `.${printKey(selector.property)}`;
      case Kind.AllPropertiesSelector:
        return '.*';
      case Kind.VariableSelector:
        return printName(selector.variable.name);
      case Kind.LiteralEntrySelector:
        return `${printKey(selector.key)}: ${this.expression(selector.value)}`;
    }
  }

  private subqueryBody(body: SubqueryBody): string {
    if (body.kind !== Kind.SubqueryPattern) return this.printQuery(body);
    return `${this.pattern(body.pattern)}${body.where ? ` WHERE ${this.expression(body.where)}` : ''}`;
  }

  /** `a, p = (b)-->(c)`. */
  pattern(pattern: Pattern): string {
    return pattern.parts.map((part) => this.patternPart(part)).join(', ');
  }

  patternPart(part: PatternPart): string {
    let out = part.variable ? `${printName(part.variable.name)} = ` : '';
    if (part.selector) {
      const { selector, count } = part.selector;
      if (selector === 'SHORTEST GROUPS') out += `SHORTEST ${count} GROUPS `;
      else if (count !== null) out += `${selector} ${count} `;
      else out += `${selector} `;
    }
    if (part.element.kind === Kind.ShortestPath) return out + this.bare(part.element);
    return out + this.path(part.element);
  }

  path(path: PathPattern): string {
    let out = '';
    let previous: Kind | null = null;
    for (const element of path.elements) {
      if (element.kind === Kind.NodePattern) out += (previous === Kind.QuantifiedPath ? ' ' : '') + this.node(element);
      else if (element.kind === Kind.RelationshipPattern) out += this.relationship(element);
      else {
        if (previous !== null && previous !== Kind.RelationshipPattern) out += ' ';
        const inner = `${element.variable ? `${printName(element.variable.name)} = ` : ''}${this.path(element.pattern)}${element.where ? ` WHERE ${this.expression(element.where)}` : ''}`;
        out += `(${inner})${element.quantifier ? this.quantifier(element.quantifier) : ''}`;
      }
      previous = element.kind;
    }
    return out;
  }

  private quantifier(range: Range): string {
    return `{${range.min ?? ''},${range.max ?? ''}}`;
  }

  private node(node: NodePattern): string {
    const parts: string[] = [];
    let head = node.variable ? printName(node.variable.name) : '';
    if (node.labels) head += `:${this.labels(node.labels, false)}`;
    if (head) parts.push(head);
    if (node.properties) parts.push(this.properties(node.properties));
    if (node.where) parts.push(`WHERE ${this.expression(node.where)}`);
    return `(${parts.join(' ')})`;
  }

  private relationship(rel: RelationshipPattern): string {
    const parts: string[] = [];
    let head = rel.variable ? printName(rel.variable.name) : '';
    if (rel.types) head += `:${this.labels(rel.types, false)}`;
    if (rel.length) {
      const { min, max } = rel.length;
      head += min !== null && min === max ? `*${min}` : min === null && max === null ? '*' : `*${min ?? ''}..${max ?? ''}`;
    }
    if (head) parts.push(head);
    if (rel.properties) parts.push(this.properties(rel.properties));
    if (rel.where) parts.push(`WHERE ${this.expression(rel.where)}`);
    const detail = parts.length > 0 ? `[${parts.join(' ')}]` : '';
    const left = rel.direction === 'INCOMING' ? '<-' : '-';
    const right = rel.direction === 'OUTGOING' ? '->' : '-';
    return `${left}${detail}${right}`;
  }

  private properties(properties: MapLiteral | Parameter): string {
    return properties.kind === Kind.MapLiteral ? this.map(properties) : this.parameter(properties);
  }

  /** A label expression; in expressions a top-level `|` is parenthesized (it could end a comprehension predicate). */
  labels(labels: LabelExpression, inExpression: boolean): string {
    const level = (l: LabelExpression): number => (l.kind === Kind.LabelOr ? 1 : l.kind === Kind.LabelAnd ? 2 : 3);
    const print = (l: LabelExpression, minimum: number): string => {
      let text: string;
      switch (l.kind) {
        case Kind.LabelName:
          text = printKey(l.name);
          break;
        case Kind.LabelWildcard:
          text = '%';
          break;
        case Kind.LabelNot:
          text = `!${print(l.operand, 3)}`;
          break;
        case Kind.LabelAnd:
          text = `${print(l.left, 2)}${l.colon ? ':' : '&'}${print(l.right, 3)}`;
          break;
        case Kind.LabelOr:
          text = `${print(l.left, 1)}|${print(l.right, 2)}`;
          break;
        case Kind.DynamicLabel:
          text = this.dynamicLabel(l);
          break;
      }
      return level(l) < minimum ? `(${text})` : text;
    };
    return print(labels, inExpression ? 2 : 0);
  }

  /** `$(expr)`, `$all(expr)` or `$any(expr)`. */
  dynamicLabel(label: DynamicLabel): string {
    return `$${label.quantifier ?? ''}(${this.expression(label.expression, 0)})`;
  }

  /** A Cypher type. */
  type(type: CypherTypeNode): string {
    switch (type.kind) {
      case Kind.SimpleType:
        return `${type.name}${type.notNull ? ' NOT NULL' : ''}`;
      case Kind.ListType:
        return `LIST<${this.type(type.elementType)}>${type.notNull ? ' NOT NULL' : ''}`;
      case Kind.UnionType:
        return `ANY<${type.types.map((t) => this.type(t)).join(' | ')}>`;
    }
  }
}
