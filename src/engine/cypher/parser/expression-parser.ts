import type {
  BinaryOperation,
  FunctionCall,
  StringLiteral,
  CypherTypeNode,
  BinaryOperator,
  Expression,
  IntegerLiteral,
  IsNull,
  LabelPredicate,
  PropertyAccess,
  Slice,
  Subscript,
  TypePredicate,
  UnaryOperation,
} from '../ast/expressions.js';
import { MAX_NESTING_DEPTH, nestingError } from './nesting-limit.js';
import { Kind } from '../ast/kinds.js';
import type { LabelExpression } from '../ast/patterns.js';
import type { Token } from '../lexer/token.js';
import { TokenKind } from '../lexer/token-kind.js';
import { ParserBase } from './parser-base.js';
import { parseIntegerText } from './numbers.js';
import type { VectorCoordinateType } from '../../values/types.js';

const comparisonOperators: ReadonlyMap<TokenKind, BinaryOperator> = new Map([
  [TokenKind.Eq, '='],
  [TokenKind.Neq, '<>'],
  [TokenKind.Lt, '<'],
  [TokenKind.Gt, '>'],
  [TokenKind.Le, '<='],
  [TokenKind.Ge, '>='],
]);

/**
 * Operator precedence, lowest first (Neo4j 5 `expression` .. `expression2`):
 * OR, XOR, AND, NOT, comparison chain, string/list/null/type predicates, `+ - ||`,
 * `* / %`, `^`, unary `+ -`, postfix (`.p`, `[i]`, `[a..b]`, `:Label`), atoms.
 */
export abstract class ExpressionParser extends ParserBase {
  abstract parseAtom(): Expression;
  abstract parseLabelExpression(allowColonConjunction: boolean): LabelExpression;
  abstract parseType(): CypherTypeNode;
  abstract parseVectorCoordinateType(): VectorCoordinateType;

  /** Expressions being parsed inside each other (bounded by MAX_NESTING_DEPTH). */
  private nesting = 0;

  /** Runs `parse` one nesting level deeper; throws the nesting error past the limit. */
  protected nested<T>(parse: () => T): T {
    if (++this.nesting > MAX_NESTING_DEPTH) throw nestingError();
    try {
      return parse();
    } finally {
      this.nesting--;
    }
  }

  /** `Expression : XorExpression (OR XorExpression)*` */
  parseExpression(): Expression {
    return this.nested(() =>
      this.parseLeftAssociative(
        () => this.parseXor(),
        () => (this.peekKeyword('OR') ? 'OR' : null),
        this.peek(),
      ),
    );
  }

  /** `XorExpression : AndExpression (XOR AndExpression)*` */
  protected parseXor(): Expression {
    return this.parseLeftAssociative(
      () => this.parseAnd(),
      () => (this.peekKeyword('XOR') ? 'XOR' : null),
      this.peek(),
    );
  }

  /** `AndExpression : NotExpression (AND NotExpression)*` */
  protected parseAnd(): Expression {
    return this.parseLeftAssociative(
      () => this.parseNot(),
      () => (this.peekKeyword('AND') ? 'AND' : null),
      this.peek(),
    );
  }

  /** `NotExpression : NOT* ComparisonExpression` */
  protected parseNot(): Expression {
    const start = this.peek();
    if (this.optionalKeyword('NOT')) {
      const operand = this.nested(() => this.parseNot());
      return this.finish<UnaryOperation>(start, { kind: Kind.UnaryOperation, operator: 'NOT', operand });
    }
    return this.parseComparison();
  }

  /**
   * `ComparisonExpression : PredicateExpression (ComparisonOp PredicateExpression)*`;
   * a chain `a < b < c` becomes `a < b AND b < c`.
   */
  protected parseComparison(): Expression {
    const start = this.peek();
    let left = this.parsePredicate();
    let result: Expression | null = null;
    for (;;) {
      const operator = comparisonOperators.get(this.peek().kind);
      if (operator === undefined) break;
      this.advance();
      const right = this.parsePredicate();
      const comparison = this.finishFrom<BinaryOperation>(left, { kind: Kind.BinaryOperation, operator, left, right });
      result =
        result === null
          ? comparison
          : this.finish<BinaryOperation>(start, { kind: Kind.BinaryOperation, operator: 'AND', left: result, right: comparison });
      left = right;
    }
    return result ?? left;
  }

  /**
   * `PredicateExpression : AddExpression (STARTS WITH e | ENDS WITH e | CONTAINS e | IN e | =~ e |
   *  IS [NOT] NULL | IS [NOT] TYPED type | IS [NOT] :: type | :: type | IS [NOT] Label)*`
   */
  protected parsePredicate(): Expression {
    const start = this.peek();
    let operand = this.parseAdditive();
    for (;;) {
      const operator = this.peekStringListOperator();
      if (operator !== null) {
        const right = this.parseAdditive();
        operand = this.finish<BinaryOperation>(start, { kind: Kind.BinaryOperation, operator, left: operand, right });
        continue;
      }
      if (this.peekKind(TokenKind.ColonColon)) {
        this.advance();
        const type = this.parseType();
        operand = this.finish<TypePredicate>(start, { kind: Kind.TypePredicate, operand, type, negated: false });
        continue;
      }
      if (!this.peekKeyword('IS')) return operand;
      operand = this.parseIsSuffix(start, operand);
    }
  }

  /** Consumes `STARTS WITH`, `ENDS WITH`, `CONTAINS`, `IN` or `=~` and returns it, else null. */
  private peekStringListOperator(): BinaryOperator | null {
    if (this.peekKind(TokenKind.RegexMatch)) {
      this.advance();
      return '=~';
    }
    if (this.optionalKeywords('STARTS', 'WITH')) return 'STARTS WITH';
    if (this.optionalKeywords('ENDS', 'WITH')) return 'ENDS WITH';
    if (this.optionalKeyword('CONTAINS')) return 'CONTAINS';
    if (this.optionalKeyword('IN')) return 'IN';
    return null;
  }

  /** The part after `IS`: `[NOT] NULL`, `[NOT] TYPED type`, `[NOT] :: type`, or a label expression. */
  private parseIsSuffix(start: Token, operand: Expression): Expression {
    this.expectKeyword('IS');
    const negated = this.optionalKeyword('NOT');
    if (this.optionalKeyword('NULL')) {
      return this.finish<IsNull>(start, { kind: Kind.IsNull, operand, negated });
    }
    if (this.optionalKeyword('TYPED') || this.optionalToken(TokenKind.ColonColon)) {
      const type = this.parseType();
      return this.finish<TypePredicate>(start, { kind: Kind.TypePredicate, operand, type, negated });
    }
    const form = ['NFC', 'NFD', 'NFKC', 'NFKD'].find((word) => this.peekKeyword(word) && this.peekKeyword('NORMALIZED', 1));
    if (form !== undefined || this.peekKeyword('NORMALIZED')) return this.parseNormalizedSuffix(start, operand, negated, form ?? 'NFC');
    if (negated) this.unexpected("'NULL', 'TYPED', 'NORMALIZED' or '::'");
    const labels = this.parseLabelExpression(false);
    return this.finish<LabelPredicate>(start, { kind: Kind.LabelPredicate, operand, labels });
  }

  /**
   * `x IS [NOT] [NFC | NFD | NFKC | NFKD] NORMALIZED`, written as the equivalent
   * `normalize(x, form) = x` (negated with NOT).
   */
  private parseNormalizedSuffix(start: Token, operand: Expression, negated: boolean, form: string): Expression {
    if (!this.peekKeyword('NORMALIZED')) this.advance();
    this.expectKeyword('NORMALIZED');
    const formLiteral: StringLiteral = { kind: Kind.StringLiteral, value: form };
    const normalized = this.finish<FunctionCall>(start, {
      kind: Kind.FunctionCall,
      namespace: [],
      name: 'normalize',
      distinct: false,
      args: [operand, formLiteral],
    });
    const test = this.finish<BinaryOperation>(start, { kind: Kind.BinaryOperation, operator: '=', left: normalized, right: operand });
    return negated ? this.finish<UnaryOperation>(start, { kind: Kind.UnaryOperation, operator: 'NOT', operand: test }) : test;
  }

  /** `AddExpression : MultiplyExpression (('+' | '-' | '||') MultiplyExpression)*` */
  protected parseAdditive(): Expression {
    return this.parseLeftAssociative(
      () => this.parseMultiplicative(),
      () => {
        const kind = this.peek().kind;
        if (kind === TokenKind.Plus) return '+';
        if (kind === TokenKind.Minus) return '-';
        if (kind === TokenKind.Concat) return '||';
        return null;
      },
      this.peek(),
    );
  }

  /** `MultiplyExpression : PowerExpression (('*' | '/' | '%') PowerExpression)*` */
  protected parseMultiplicative(): Expression {
    return this.parseLeftAssociative(
      () => this.parsePower(),
      () => {
        const kind = this.peek().kind;
        if (kind === TokenKind.Star) return '*';
        if (kind === TokenKind.Slash) return '/';
        if (kind === TokenKind.Percent) return '%';
        return null;
      },
      this.peek(),
    );
  }

  /** `PowerExpression : UnaryExpression ('^' UnaryExpression)*` (left-associative, as in Neo4j). */
  protected parsePower(): Expression {
    return this.parseLeftAssociative(
      () => this.parseUnary(),
      () => (this.peekKind(TokenKind.Caret) ? '^' : null),
      this.peek(),
    );
  }

  /**
   * `UnaryExpression : ('+' | '-')* PostfixExpression`. `-` directly before an integer literal
   * folds into a negative literal, so `-9223372036854775808` is in range.
   */
  protected parseUnary(): Expression {
    const start = this.peek();
    if (start.kind === TokenKind.Minus && this.peekKind(TokenKind.Integer, 1)) {
      this.advance();
      const digits = this.advance();
      const value = parseIntegerText(this.text, digits, true);
      const literal = this.finish<IntegerLiteral>(start, { kind: Kind.IntegerLiteral, value });
      return this.parsePostfix(start, literal);
    }
    if (start.kind === TokenKind.Minus || start.kind === TokenKind.Plus) {
      this.advance();
      const operand = this.nested(() => this.parseUnary());
      return this.finish<UnaryOperation>(start, {
        kind: Kind.UnaryOperation,
        operator: start.kind === TokenKind.Minus ? '-' : '+',
        operand,
      });
    }
    return this.parsePostfixExpression();
  }

  /** `PostfixExpression : Atom ('.' PropertyKey | '[' e ']' | '[' e? '..' e? ']' | LabelExpression)*` */
  parsePostfixExpression(): Expression {
    const start = this.peek();
    return this.parsePostfix(start, this.parseAtom());
  }

  /** Applies postfix operators to `object`, which started at `start`. */
  protected parsePostfix(start: Token, object: Expression): Expression {
    for (;;) {
      const kind = this.peek().kind;
      if (kind === TokenKind.Dot) {
        this.advance();
        const property = this.parseName('a property key name');
        object = this.finish<PropertyAccess>(start, { kind: Kind.PropertyAccess, object, property });
      } else if (kind === TokenKind.LBracket) {
        object = this.parseSubscript(start, object);
      } else if (kind === TokenKind.Colon && this.peekLabelStart(1)) {
        this.advance();
        const labels = this.parseLabelExpression(true);
        object = this.finish<LabelPredicate>(start, { kind: Kind.LabelPredicate, operand: object, labels });
      } else {
        return object;
      }
    }
  }

  /** True when the token at `offset` can begin a label expression. */
  protected peekLabelStart(offset: number): boolean {
    const kind = this.peek(offset).kind;
    return (
      kind === TokenKind.Name ||
      kind === TokenKind.QuotedName ||
      kind === TokenKind.Bang ||
      kind === TokenKind.Percent ||
      kind === TokenKind.LParen ||
      this.peekDynamicLabel(offset)
    );
  }

  /** True at `$(`, `$all(` or `$any(` (a dynamic label or type). */
  protected peekDynamicLabel(offset: number): boolean {
    const token = this.peek(offset);
    if (token.kind === TokenKind.Dollar) return this.peekKind(TokenKind.LParen, offset + 1);
    if (token.kind !== TokenKind.Parameter || !this.peekKind(TokenKind.LParen, offset + 1)) return false;
    const name = token.value.toLowerCase();
    return name === 'all' || name === 'any';
  }

  /** `'[' Expression ']'` or `'[' Expression? '..' Expression? ']'`. */
  private parseSubscript(start: Token, object: Expression): Expression {
    this.expectToken(TokenKind.LBracket);
    const from = this.peekKind(TokenKind.DotDot) ? null : this.parseExpression();
    if (this.optionalToken(TokenKind.DotDot)) {
      const to = this.peekKind(TokenKind.RBracket) ? null : this.parseExpression();
      this.expectToken(TokenKind.RBracket);
      return this.finish<Slice>(start, { kind: Kind.Slice, object, from, to });
    }
    if (from === null) this.unexpected('an expression');
    this.expectToken(TokenKind.RBracket);
    return this.finish<Subscript>(start, { kind: Kind.Subscript, object, index: from });
  }

  /** Parses `operand (op operand)*` left-associatively for operators chosen by `peekOperator`. */
  private parseLeftAssociative(
    parseOperand: () => Expression,
    peekOperator: (token: Token) => BinaryOperator | null,
    start: Token,
  ): Expression {
    let left = parseOperand();
    for (;;) {
      const operator = peekOperator(this.peek());
      if (operator === null) return left;
      this.advance();
      const right = parseOperand();
      left = this.finish<BinaryOperation>(start, { kind: Kind.BinaryOperation, operator, left, right });
    }
  }

  /** Location-preserving finish for a node starting where `first` started. */
  private finishFrom<T>(first: Expression, node: Omit<T, 'loc'>): T {
    const end = this.previous();
    const loc = first.loc ? { ...first.loc, end: end.end } : undefined;
    return (loc ? { ...node, loc } : { ...node }) as T;
  }
}
