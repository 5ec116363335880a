import type {
  AllPropertiesSelector,
  BooleanLiteral,
  FloatLiteral,
  IntegerLiteral,
  LiteralEntrySelector,
  NullLiteral,
  PropertySelector,
  StringLiteral,
  VariableSelector,
  Case,
  CaseAlternative,
  CollectSubquery,
  CountStar,
  CountSubquery,
  ExistsSubquery,
  Expression,
  FunctionCall,
  ListComprehension,
  ListLiteral,
  ListPredicate,
  MapEntry,
  MapLiteral,
  MapProjection,
  MapProjectionSelector,
  Parameter,
  PatternComprehension,
  PatternExpression,
  Reduce,
  SubqueryBody,
  SubqueryPattern,
} from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { ShortestPath } from '../ast/patterns.js';
import type { Token } from '../lexer/token.js';
import { TokenKind } from '../lexer/token-kind.js';
import { ExpressionParser } from './expression-parser.js';
import { parseFloatText, parseIntegerText } from './numbers.js';
import { VECTOR_DISTANCE_METRICS, VECTOR_NORM_METRICS } from '../../values/vector.js';

const listPredicates = new Set(['ALL', 'ANY', 'NONE', 'SINGLE']);

/**
 * Functions one of whose arguments is a keyword, not an expression: its position and the metric
 * names it takes (null: a vector coordinate type).
 */
const vectorKeywordFunctions: ReadonlyMap<string, { position: number; metrics: ReadonlySet<string> | null }> = new Map([
  ['vector', { position: 2, metrics: null }],
  ['vector_distance', { position: 2, metrics: VECTOR_DISTANCE_METRICS }],
  ['vector_norm', { position: 1, metrics: VECTOR_NORM_METRICS }],
  ['vector_dimension_count', { position: -1, metrics: null }],
]);

/** Atoms: literals, parameters, variables, function calls and the bracketed expression forms. */
export abstract class AtomParser extends ExpressionParser {
  /** Token indexes where a pattern expression / comprehension was tried and failed (avoids exponential backtracking). */
  private readonly failedPatternAt = new Set<number>();

  /**
   * `Atom : Literal | Parameter | CaseExpression | COUNT(*) | ExistsSubquery | CountSubquery |
   *  CollectSubquery | ListComprehension | PatternComprehension | ListLiteral | MapLiteral |
   *  MapProjection | Quantifier | Reduce | ShortestPath | PatternExpression |
   *  '(' Expression ')' | FunctionInvocation | Variable`
   */
  parseAtom(): Expression {
    const start = this.peek();
    switch (start.kind) {
      case TokenKind.Integer:
        this.advance();
        return this.finish<IntegerLiteral>(start, { kind: Kind.IntegerLiteral, value: parseIntegerText(this.text, start, false) });
      case TokenKind.Float:
        this.advance();
        return this.finish<FloatLiteral>(start, { kind: Kind.FloatLiteral, value: parseFloatText(this.text, start) });
      case TokenKind.String:
        this.advance();
        return this.finish<StringLiteral>(start, { kind: Kind.StringLiteral, value: start.value });
      case TokenKind.Parameter:
        return this.parseParameter();
      case TokenKind.LBracket:
        return this.parseBracketed();
      case TokenKind.LBrace:
        return this.parseMapLiteral();
      case TokenKind.LParen:
        return this.parseParenthesized();
      case TokenKind.Name:
        return this.parseKeywordAtom(start) ?? this.parseNamedAtom();
      case TokenKind.QuotedName:
        return this.parseNamedAtom();
      case TokenKind.UnicodeDash:
        throw this.errorAt(start, `Invalid input '${start.value}': expected an expression`, 'InvalidUnicodeCharacter');
      default:
        this.unexpected('an expression');
    }
  }

  /** `Parameter : '$' (SymbolicName | DecimalInteger)` */
  parseParameter(): Parameter {
    const start = this.expectToken(TokenKind.Parameter);
    return this.finish<Parameter>(start, { kind: Kind.Parameter, name: start.value });
  }

  /** Atoms introduced by a keyword; null when the name is an ordinary identifier here. */
  private parseKeywordAtom(start: Token): Expression | null {
    const word = start.value.toUpperCase();
    const next = this.peek(1).kind;
    switch (word) {
      case 'TRUE':
      case 'FALSE':
        this.advance();
        return this.finish<BooleanLiteral>(start, { kind: Kind.BooleanLiteral, value: word === 'TRUE' });
      case 'NULL':
        this.advance();
        return this.finish<NullLiteral>(start, { kind: Kind.NullLiteral });
      case 'CASE':
        return this.parseCase();
      case 'EXISTS':
        return next === TokenKind.LBrace ? this.parseSubquery(Kind.ExistsSubquery) : null;
      case 'COUNT':
        if (next === TokenKind.LBrace) return this.parseSubquery(Kind.CountSubquery);
        if (next === TokenKind.LParen && this.peekKind(TokenKind.Star, 2) && this.peekKind(TokenKind.RParen, 3)) {
          this.index += 4;
          return this.finish<CountStar>(start, { kind: Kind.CountStar });
        }
        return null;
      case 'COLLECT':
        return next === TokenKind.LBrace ? this.parseSubquery(Kind.CollectSubquery) : null;
      case 'REDUCE':
        return next === TokenKind.LParen ? this.parseReduce() : null;
      case 'SHORTESTPATH':
      case 'ALLSHORTESTPATHS':
        return next === TokenKind.LParen ? this.parseShortestPath() : null;
      default:
        if (listPredicates.has(word) && next === TokenKind.LParen && this.peekName(2) && this.peekKeyword('IN', 3)) {
          return this.parseListPredicate();
        }
        return null;
    }
  }

  /** `FunctionInvocation`, `MapProjection` or `Variable`, all starting with a name. */
  private parseNamedAtom(): Expression {
    const start = this.peek();
    let length = 1;
    while (this.peekKind(TokenKind.Dot, length) && this.peekName(length + 1)) length += 2;
    if (this.peekKind(TokenKind.LParen, length)) return this.parseFunctionCall();
    const variable = this.parseVariable();
    if (!this.peekKind(TokenKind.LBrace)) return variable;
    const selectors = this.optionalMany(TokenKind.LBrace, () => this.parseMapProjectionSelector(), TokenKind.RBrace);
    return this.finish<MapProjection>(start, { kind: Kind.MapProjection, variable, selectors });
  }

  /** `FunctionInvocation : Namespace FunctionName '(' [DISTINCT] [Expression (',' Expression)*] ')'` */
  private parseFunctionCall(): FunctionCall {
    const start = this.peek();
    const parts = [this.parseName()];
    while (this.optionalToken(TokenKind.Dot)) parts.push(this.parseName());
    this.expectToken(TokenKind.LParen);
    const isTrim = parts.length === 1 && parts[0]!.toLowerCase() === 'trim';
    if (isTrim && (this.peekKeyword('LEADING') || this.peekKeyword('TRAILING') || this.peekKeyword('BOTH')))
      return this.parseTrimFrom(start, null);
    const vectorKeyword = parts.length === 1 ? vectorKeywordFunctions.get(parts[0]!.toLowerCase()) : undefined;
    if (vectorKeyword !== undefined && this.cypherVersion === '5') {
      throw this.errorAt(start, `Unknown function '${parts[0]!}'. The VECTOR functions need Cypher 25`, 'UnknownFunction');
    }
    const distinct = this.optionalKeyword('DISTINCT');
    const args: Expression[] = [];
    if (!this.peekKind(TokenKind.RParen)) {
      do {
        if (vectorKeyword !== undefined && args.length === vectorKeyword.position) {
          args.push(this.parseVectorKeyword(vectorKeyword.metrics));
          continue;
        }
        args.push(this.parseExpression());
        if (isTrim && args.length === 1 && this.peekKeyword('FROM')) return this.parseTrimFrom(start, args[0]!);
      } while (this.optionalToken(TokenKind.Comma));
    }
    this.expectToken(TokenKind.RParen);
    const name = parts.pop()!;
    if (name.toLowerCase() === 'normalize' && parts.length === 0) normalFormArgument(args);
    return this.finish<FunctionCall>(start, { kind: Kind.FunctionCall, namespace: parts, name, distinct, args });
  }

  /**
   * The keyword argument of `vector(v, d, coordinateType)`, `vector_distance(a, b, metric)` and
   * `vector_norm(v, metric)`, as a string literal with its canonical name.
   */
  private parseVectorKeyword(metrics: ReadonlySet<string> | null): StringLiteral {
    const start = this.peek();
    if (metrics === null) {
      const value = this.parseVectorCoordinateType();
      return this.finish<StringLiteral>(start, { kind: Kind.StringLiteral, value });
    }
    const word = start.kind === TokenKind.Name ? start.value.toUpperCase() : '';
    if (!metrics.has(word)) this.unexpected([...metrics].join(', '));
    this.advance();
    return this.finish<StringLiteral>(start, { kind: Kind.StringLiteral, value: word });
  }

  /**
   * `TrimFunction : trim '(' [LEADING | TRAILING | BOTH] [Expression] FROM Expression ')'`, written
   * as the equivalent `ltrim` / `rtrim` / `btrim(source [, characters])` call.
   */
  private parseTrimFrom(start: Token, characters: Expression | null): FunctionCall {
    let name = 'btrim';
    if (characters === null) {
      const side = this.advance().value.toUpperCase();
      name = side === 'LEADING' ? 'ltrim' : side === 'TRAILING' ? 'rtrim' : 'btrim';
      if (!this.peekKeyword('FROM')) characters = this.parseExpression();
    }
    this.expectKeyword('FROM');
    const source = this.parseExpression();
    this.expectToken(TokenKind.RParen);
    const args = characters === null ? [source] : [source, characters];
    return this.finish<FunctionCall>(start, { kind: Kind.FunctionCall, namespace: [], name, distinct: false, args });
  }

  /** `MapProjectionSelector : '.' PropertyKey | '.' '*' | PropertyKey ':' Expression | Variable` */
  private parseMapProjectionSelector(): MapProjectionSelector {
    const start = this.peek();
    if (this.optionalToken(TokenKind.Dot)) {
      if (this.optionalToken(TokenKind.Star)) return this.finish<AllPropertiesSelector>(start, { kind: Kind.AllPropertiesSelector });
      const property = this.parseName('a property key name');
      return this.finish<PropertySelector>(start, { kind: Kind.PropertySelector, property });
    }
    if (this.peekKind(TokenKind.Colon, 1)) {
      const key = this.parseName('a property key name');
      this.expectToken(TokenKind.Colon);
      const value = this.parseExpression();
      return this.finish<LiteralEntrySelector>(start, { kind: Kind.LiteralEntrySelector, key, value });
    }
    const variable = this.parseVariable();
    return this.finish<VariableSelector>(start, { kind: Kind.VariableSelector, variable });
  }

  /** `MapLiteral : '{' [PropertyKey ':' Expression (',' PropertyKey ':' Expression)*] '}'` */
  parseMapLiteral(): MapLiteral {
    const start = this.peek();
    const entries = this.optionalMany(
      TokenKind.LBrace,
      () => {
        const entryStart = this.peek();
        const key = this.parseName('a property key name');
        this.expectToken(TokenKind.Colon);
        const value = this.parseExpression();
        return this.finish<MapEntry>(entryStart, { kind: Kind.MapEntry, key, value });
      },
      TokenKind.RBrace,
    );
    return this.finish<MapLiteral>(start, { kind: Kind.MapLiteral, entries });
  }

  /** `'['` starts a list comprehension, a pattern comprehension or a list literal. */
  private parseBracketed(): Expression {
    if (this.peekName(1) && this.peekKeyword('IN', 2)) return this.parseListComprehension();
    const patternLike =
      (this.peekKind(TokenKind.LParen, 1) && this.relationshipFollowsGroup(1)) || (this.peekName(1) && this.peekKind(TokenKind.Eq, 2));
    if (patternLike && !this.failedPatternAt.has(this.index)) {
      const at = this.index;
      const comprehension = this.tryParse(() => this.parsePatternComprehension());
      if (comprehension !== null) return comprehension;
      this.failedPatternAt.add(at);
    }
    const start = this.peek();
    const items = this.optionalMany(TokenKind.LBracket, () => this.parseExpression(), TokenKind.RBracket);
    return this.finish<ListLiteral>(start, { kind: Kind.ListLiteral, items });
  }

  /** `ListComprehension : '[' Variable IN Expression [WHERE Expression] ['|' Expression] ']'` */
  private parseListComprehension(): ListComprehension {
    const start = this.expectToken(TokenKind.LBracket);
    const variable = this.parseVariable();
    this.expectKeyword('IN');
    const source = this.parseExpression();
    const where = this.optionalKeyword('WHERE') ? this.parseComprehensionPredicate() : null;
    const projection = this.optionalToken(TokenKind.Pipe) ? this.parseExpression() : null;
    this.expectToken(TokenKind.RBracket);
    return this.finish<ListComprehension>(start, { kind: Kind.ListComprehension, variable, source, where, projection });
  }

  /** `PatternComprehension : '[' [Variable '='] RelationshipsPattern [WHERE Expression] '|' Expression ']'` */
  private parsePatternComprehension(): PatternComprehension {
    const start = this.expectToken(TokenKind.LBracket);
    let variable = null;
    if (this.peekName() && this.peekKind(TokenKind.Eq, 1)) {
      variable = this.parseVariable();
      this.expectToken(TokenKind.Eq);
    }
    const pattern = this.parsePathPattern();
    if (pattern.elements.length < 2) this.unexpected("'-' or '<'");
    const where = this.optionalKeyword('WHERE') ? this.parseComprehensionPredicate() : null;
    this.expectToken(TokenKind.Pipe);
    const projection = this.parseExpression();
    this.expectToken(TokenKind.RBracket);
    return this.finish<PatternComprehension>(start, { kind: Kind.PatternComprehension, variable, pattern, where, projection });
  }

  /** `'(' Expression ')'`, or a pattern expression `(a)-[:T]->(b)` used as a predicate. */
  private parseParenthesized(): Expression {
    const start = this.peek();
    if (!this.failedPatternAt.has(this.index) && this.relationshipFollowsGroup(0)) {
      const at = this.index;
      const pattern = this.tryParse(() => {
        const path = this.parsePathPattern();
        if (path.elements.length < 2) this.unexpected("'-' or '<'");
        return path;
      });
      if (pattern !== null) return this.finish<PatternExpression>(start, { kind: Kind.PatternExpression, pattern });
      this.failedPatternAt.add(at);
    }
    this.expectToken(TokenKind.LParen);
    const expression = this.parseExpression();
    this.expectToken(TokenKind.RParen);
    return expression;
  }

  /**
   * True when the parenthesized group opening at `offset` is followed by a relationship arrow
   * (`(a)-->`, `(a)<-`), the only way a pattern can start inside an expression. Cheap lookahead
   * that spares the backtracking attempt for ordinary parenthesized expressions.
   */
  private relationshipFollowsGroup(offset: number): boolean {
    let depth = 0;
    for (let i = this.index + offset; i < this.tokens.length; i++) {
      const kind = this.tokens[i]!.kind;
      if (kind === TokenKind.LParen) depth++;
      else if (kind === TokenKind.RParen && --depth === 0) {
        const next = this.tokens[i + 1]?.kind;
        return (
          next === TokenKind.Minus ||
          next === TokenKind.Lt ||
          next === TokenKind.UnicodeDash ||
          next === TokenKind.UnicodeLeftArrowHead ||
          next === TokenKind.LParen
        );
      } else if (kind === TokenKind.EOF) return false;
    }
    return false;
  }

  /** `CaseExpression : CASE [Expression] (WHEN Expression THEN Expression)+ [ELSE Expression] END` */
  private parseCase(): Case {
    const start = this.expectKeyword('CASE');
    const subject = this.peekKeyword('WHEN') ? null : this.parseExpression();
    const alternatives: CaseAlternative[] = [];
    do {
      const whenStart = this.expectKeyword('WHEN');
      const when = this.parseExpression();
      this.expectKeyword('THEN');
      const then = this.parseExpression();
      alternatives.push(this.finish<CaseAlternative>(whenStart, { kind: Kind.CaseAlternative, when, then }));
    } while (this.peekKeyword('WHEN'));
    const otherwise = this.optionalKeyword('ELSE') ? this.parseExpression() : null;
    this.expectKeyword('END');
    return this.finish<Case>(start, { kind: Kind.Case, subject, alternatives, otherwise });
  }

  /** `Quantifier : (ALL | ANY | NONE | SINGLE) '(' Variable IN Expression [WHERE Expression] ')'` */
  private parseListPredicate(): ListPredicate {
    const start = this.advance();
    const quantifier = start.value.toLowerCase() as ListPredicate['quantifier'];
    this.expectToken(TokenKind.LParen);
    const variable = this.parseVariable();
    this.expectKeyword('IN');
    const source = this.parseExpression();
    const where = this.optionalKeyword('WHERE') ? this.parseExpression() : null;
    this.expectToken(TokenKind.RParen);
    return this.finish<ListPredicate>(start, { kind: Kind.ListPredicate, quantifier, variable, source, where });
  }

  /** `Reduce : REDUCE '(' Variable '=' Expression ',' Variable IN Expression '|' Expression ')'` */
  private parseReduce(): Reduce {
    const start = this.expectKeyword('REDUCE');
    this.expectToken(TokenKind.LParen);
    const accumulator = this.parseVariable();
    this.expectToken(TokenKind.Eq);
    const init = this.parseExpression();
    this.expectToken(TokenKind.Comma);
    const variable = this.parseVariable();
    this.expectKeyword('IN');
    const source = this.parseExpression();
    this.expectToken(TokenKind.Pipe);
    const expression = this.parseExpression();
    this.expectToken(TokenKind.RParen);
    return this.finish<Reduce>(start, { kind: Kind.Reduce, accumulator, init, variable, source, expression });
  }

  /** `ShortestPathPattern : (shortestPath | allShortestPaths) '(' PatternElement ')'` */
  parseShortestPath(): ShortestPath {
    const start = this.advance();
    const all = start.value.toUpperCase() === 'ALLSHORTESTPATHS';
    this.expectToken(TokenKind.LParen);
    const pattern = this.parsePathPattern();
    this.expectToken(TokenKind.RParen);
    return this.finish<ShortestPath>(start, { kind: Kind.ShortestPath, all, pattern });
  }

  /** `EXISTS { body }`, `COUNT { body }`, `COLLECT { query }`. */
  private parseSubquery(kind: Kind.ExistsSubquery | Kind.CountSubquery | Kind.CollectSubquery): Expression {
    const start = this.advance();
    this.expectToken(TokenKind.LBrace);
    const body: SubqueryBody = kind !== Kind.CollectSubquery && this.peekPatternStart() ? this.parseSubqueryPattern() : this.parseQuery();
    this.expectToken(TokenKind.RBrace);
    if (kind === Kind.CollectSubquery) return this.finish<CollectSubquery>(start, { kind, body: body as CollectSubquery['body'] });
    if (kind === Kind.CountSubquery) return this.finish<CountSubquery>(start, { kind, body });
    return this.finish<ExistsSubquery>(start, { kind, body });
  }

  /** True when the next tokens begin a pattern rather than a clause. */
  private peekPatternStart(): boolean {
    return this.peekKind(TokenKind.LParen) || (this.peekName() && this.peekKind(TokenKind.Eq, 1));
  }

  /** The short subquery form: `Pattern [WHERE Expression]`. */
  private parseSubqueryPattern(): SubqueryPattern {
    const start = this.peek();
    const pattern = this.parsePattern();
    const where = this.optionalKeyword('WHERE') ? this.parseExpression() : null;
    return this.finish<SubqueryPattern>(start, { kind: Kind.SubqueryPattern, pattern, where });
  }
}

const normalForms = new Set(['NFC', 'NFD', 'NFKC', 'NFKD']);

/** `normalize(s, NFKC)`: the normal form is a bare keyword; it is kept as the string `'NFKC'`. */
function normalFormArgument(args: Expression[]): void {
  const form = args[1];
  if (form?.kind === Kind.Variable && normalForms.has(form.name.toUpperCase())) {
    args[1] = { kind: Kind.StringLiteral, value: form.name.toUpperCase(), ...(form.loc ? { loc: form.loc } : {}) };
  }
}
