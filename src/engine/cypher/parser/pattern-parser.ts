import type { Expression, MapLiteral, Parameter, Variable } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type {
  DynamicLabel,
  LabelExpression,
  NodePattern,
  PathElement,
  PathPattern,
  PathSelector,
  Pattern,
  PatternPart,
  QuantifiedPath,
  Range,
  RelationshipDirection,
  RelationshipPattern,
} from '../ast/patterns.js';
import { TokenKind } from '../lexer/token-kind.js';
import { AtomParser } from './atom-parser.js';
import { parseIntegerText } from './numbers.js';

/** Patterns: pattern parts, path patterns, node and relationship patterns, label expressions. */
export abstract class PatternParser extends AtomParser {
  /** `Pattern : PatternPart (',' PatternPart)*` */
  parsePattern(): Pattern {
    const start = this.peek();
    const parts = this.delimitedMany(TokenKind.Comma, () => this.parsePatternPart());
    return this.finish<Pattern>(start, { kind: Kind.Pattern, parts });
  }

  /** `PatternPart : [Variable '='] [PathSelector] (ShortestPathPattern | PathPattern)` */
  parsePatternPart(): PatternPart {
    const start = this.peek();
    let variable: Variable | null = null;
    if (this.peekName() && this.peekKind(TokenKind.Eq, 1)) {
      variable = this.parseVariable();
      this.expectToken(TokenKind.Eq);
    }
    const selector = this.parsePathSelector();
    const shortest = this.peekKeyword('SHORTESTPATH') || this.peekKeyword('ALLSHORTESTPATHS');
    const element = shortest && this.peekKind(TokenKind.LParen, 1) ? this.parseShortestPath() : this.parsePathPattern();
    return this.finish<PatternPart>(start, { kind: Kind.PatternPart, variable, selector, element });
  }

  /**
   * `PathSelector : ANY SHORTEST [PATH|PATHS] | ALL SHORTEST [PATH|PATHS] | SHORTEST k [PATH|PATHS] [GROUPS]
   *  | ANY [k] [PATH|PATHS] | ALL [PATH|PATHS]`
   */
  private parsePathSelector(): PathSelector | null {
    const start = this.peek();
    if (!(this.peekKeyword('ANY') || this.peekKeyword('ALL') || this.peekKeyword('SHORTEST'))) return null;
    if (this.peekKind(TokenKind.Eq, 1)) return null;
    let selector: PathSelector['selector'];
    let count: bigint | null = null;
    const word = this.advance().value.toUpperCase();
    if (word === 'SHORTEST') {
      count = this.parseCount();
      this.optionalPathWord();
      selector = this.optionalKeyword('GROUPS') ? 'SHORTEST GROUPS' : 'SHORTEST';
    } else if (this.optionalKeyword('SHORTEST')) {
      selector = word === 'ANY' ? 'ANY SHORTEST' : 'ALL SHORTEST';
    } else {
      selector = word === 'ANY' ? 'ANY' : 'ALL';
      if (word === 'ANY' && this.peekKind(TokenKind.Integer)) count = this.parseCount();
    }
    this.optionalPathWord();
    return this.finish<PathSelector>(start, { kind: Kind.PathSelector, selector, count });
  }

  private optionalPathWord(): boolean {
    return this.optionalAnyKeyword('PATH', 'PATHS') !== null;
  }

  private parseCount(): bigint {
    const token = this.expectToken(TokenKind.Integer);
    return parseIntegerText(this.text, token, false);
  }

  /** `PathPattern : PathFactor ((RelationshipPattern | ε) PathFactor)*` */
  parsePathPattern(): PathPattern {
    const start = this.peek();
    const elements: PathElement[] = [this.parsePathFactor()];
    for (;;) {
      if (this.peekRelationshipStart()) {
        elements.push(this.parseQuantifiedRelationship());
        elements.push(this.parsePathFactor());
      } else if (this.peekKind(TokenKind.LParen) && this.peekParenthesizedPath()) {
        elements.push(this.parsePathFactor());
      } else if (this.peekKind(TokenKind.LParen) && elements[elements.length - 1]!.kind === Kind.QuantifiedPath) {
        elements.push(this.parsePathFactor());
      } else {
        break;
      }
    }
    return this.finish<PathPattern>(start, { kind: Kind.PathPattern, elements });
  }

  /**
   * `RelationshipPattern [Quantifier]`: a quantified relationship `-[:R]->{1,3}` is shorthand for
   * the quantified path `(()-[:R]->()){1,3}` and is represented that way.
   */
  private parseQuantifiedRelationship(): RelationshipPattern | QuantifiedPath {
    const start = this.peek();
    const relationship = this.parseRelationshipPattern();
    const kind = this.peek().kind;
    if (kind !== TokenKind.Plus && kind !== TokenKind.Star && kind !== TokenKind.LBrace) return relationship;
    const quantifier = this.parseQuantifier();
    const anonymous: NodePattern = { kind: Kind.NodePattern, variable: null, labels: null, properties: null, where: null };
    const pattern: PathPattern = { kind: Kind.PathPattern, elements: [anonymous, relationship, anonymous], loc: relationship.loc };
    return this.finish<QuantifiedPath>(start, { kind: Kind.QuantifiedPath, variable: null, pattern, where: null, quantifier });
  }

  private peekRelationshipStart(): boolean {
    const kind = this.peek().kind;
    if (kind === TokenKind.Minus || kind === TokenKind.UnicodeDash) return true;
    if (kind === TokenKind.Lt || kind === TokenKind.UnicodeLeftArrowHead) {
      const next = this.peek(1).kind;
      return next === TokenKind.Minus || next === TokenKind.UnicodeDash;
    }
    return false;
  }

  /** True at `(` when it opens a parenthesized (possibly quantified) path rather than a node. */
  private peekParenthesizedPath(): boolean {
    return this.peekKind(TokenKind.LParen, 1) || (this.peekName(1) && this.peekKind(TokenKind.Eq, 2));
  }

  /** `PathFactor : NodePattern | '(' [Variable '='] PathPattern [WHERE Expression] ')' [Quantifier]` */
  private parsePathFactor(): NodePattern | QuantifiedPath {
    if (!this.peekKind(TokenKind.LParen) || !this.peekParenthesizedPath()) return this.parseNodePattern();
    const start = this.expectToken(TokenKind.LParen);
    let variable: Variable | null = null;
    if (this.peekName() && this.peekKind(TokenKind.Eq, 1)) {
      variable = this.parseVariable();
      this.expectToken(TokenKind.Eq);
    }
    const pattern = this.parsePathPattern();
    const where = this.optionalKeyword('WHERE') ? this.parseExpression() : null;
    this.expectToken(TokenKind.RParen);
    const quantifier = this.parseQuantifier();
    return this.finish<QuantifiedPath>(start, { kind: Kind.QuantifiedPath, variable, pattern, where, quantifier });
  }

  /** `Quantifier : '{' [m] ',' [n] '}' | '{' n '}' | '+' | '*'` */
  private parseQuantifier(): Range | null {
    const start = this.peek();
    if (this.optionalToken(TokenKind.Plus)) return this.finish<Range>(start, { kind: Kind.Range, min: 1n, max: null });
    if (this.optionalToken(TokenKind.Star)) return this.finish<Range>(start, { kind: Kind.Range, min: 0n, max: null });
    if (!this.peekKind(TokenKind.LBrace)) return null;
    this.advance();
    const min = this.peekKind(TokenKind.Integer) ? this.parseCount() : null;
    let max = min;
    if (this.optionalToken(TokenKind.Comma)) max = this.peekKind(TokenKind.Integer) ? this.parseCount() : null;
    else if (min === null) this.unexpected("an integer or ','");
    this.expectToken(TokenKind.RBrace);
    return this.finish<Range>(start, { kind: Kind.Range, min, max });
  }

  /** `NodePattern : '(' [Variable] [LabelExpression] [Properties] [WHERE Expression] ')'` */
  parseNodePattern(): NodePattern {
    const start = this.expectToken(TokenKind.LParen);
    const variable = this.peekName() && !this.peekKeyword('WHERE') ? this.parseVariable() : null;
    const labels = this.parseOptionalLabels();
    const properties = this.parseOptionalProperties();
    const where = this.optionalKeyword('WHERE') ? this.parseExpression() : null;
    this.expectToken(TokenKind.RParen);
    return this.finish<NodePattern>(start, { kind: Kind.NodePattern, variable, labels, properties, where });
  }

  /** `':' LabelExpression` or `IS LabelExpression`, if present. */
  private parseOptionalLabels(): LabelExpression | null {
    if (this.optionalToken(TokenKind.Colon)) return this.parseLabelExpression(true);
    if (this.peekKeyword('IS') && this.peekLabelStart(1)) {
      this.advance();
      return this.parseLabelExpression(true);
    }
    return null;
  }

  /** `Properties : MapLiteral | Parameter`, if present. */
  private parseOptionalProperties(): MapLiteral | Parameter | null {
    if (this.peekKind(TokenKind.LBrace)) return this.parseMapLiteral();
    if (this.peekKind(TokenKind.Parameter)) return this.parseParameter();
    return null;
  }

  /**
   * `RelationshipPattern : LeftArrowHead? Dash ['[' [Variable] [':' LabelExpression] [RangeLiteral]
   *  [Properties] [WHERE Expression] ']'] Dash RightArrowHead?`
   */
  private parseRelationshipPattern(): RelationshipPattern {
    const start = this.peek();
    const left = this.optionalToken(TokenKind.Lt) || this.optionalToken(TokenKind.UnicodeLeftArrowHead);
    this.expectDash();
    let variable: Variable | null = null;
    let types: LabelExpression | null = null;
    let length: Range | null = null;
    let properties: MapLiteral | Parameter | null = null;
    let where: Expression | null = null;
    if (this.optionalToken(TokenKind.LBracket)) {
      variable = this.peekName() && !this.peekKeyword('WHERE') ? this.parseVariable() : null;
      types = this.parseOptionalLabels();
      length = this.parseRangeLiteral();
      properties = this.parseOptionalProperties();
      where = this.optionalKeyword('WHERE') ? this.parseExpression() : null;
      this.expectToken(TokenKind.RBracket);
    }
    this.expectDash();
    const right = this.optionalToken(TokenKind.Gt) || this.optionalToken(TokenKind.UnicodeRightArrowHead);
    const direction: RelationshipDirection = left === right ? 'BOTH' : left ? 'INCOMING' : 'OUTGOING';
    return this.finish<RelationshipPattern>(start, {
      kind: Kind.RelationshipPattern,
      variable,
      types,
      direction,
      length,
      properties,
      where,
    });
  }

  private expectDash(): void {
    if (!this.optionalToken(TokenKind.Minus) && !this.optionalToken(TokenKind.UnicodeDash)) this.unexpected("'-'");
  }

  /** `RangeLiteral : '*' [Integer] ['..' [Integer]]` */
  private parseRangeLiteral(): Range | null {
    const start = this.peek();
    if (this.peekKind(TokenKind.DotDot) || this.peekKind(TokenKind.Integer)) {
      throw this.errorAt(
        start,
        `Invalid input '${start.value}': expected '*' before a variable length range`,
        'InvalidRelationshipPattern',
      );
    }
    if (!this.optionalToken(TokenKind.Star)) return null;
    if (this.peekKind(TokenKind.Minus)) {
      throw this.errorAt(this.peek(), "Invalid input '-': a variable length range takes non-negative bounds", 'InvalidRelationshipPattern');
    }
    const min = this.peekKind(TokenKind.Integer) ? this.parseCount() : null;
    let max = min;
    if (this.optionalToken(TokenKind.DotDot)) max = this.peekKind(TokenKind.Integer) ? this.parseCount() : null;
    return this.finish<Range>(start, { kind: Kind.Range, min, max });
  }

  /**
   * `LabelExpression4 : LabelExpression3 ('|' [':'] LabelExpression3)*`
   * `LabelExpression3 : LabelExpression2 (('&' | ':') LabelExpression2)*`
   * `LabelExpression2 : '!'* LabelExpression1`
   * `LabelExpression1 : '(' LabelExpression4 ')' | '%' | DynamicLabel | SymbolicName`
   */
  parseLabelExpression(allowColonConjunction: boolean): LabelExpression {
    const start = this.peek();
    let left = this.parseLabelConjunction(allowColonConjunction);
    while (this.pipeContinuesLabels && this.peekKind(TokenKind.Pipe) && (this.peekLabelStart(1) || this.peekKind(TokenKind.Colon, 1))) {
      this.advance();
      this.optionalToken(TokenKind.Colon); // legacy `:A|:B`
      const right = this.parseLabelConjunction(allowColonConjunction);
      left = this.finish(start, { kind: Kind.LabelOr, left, right });
    }
    return left;
  }

  private parseLabelConjunction(allowColon: boolean): LabelExpression {
    const start = this.peek();
    let left = this.parseLabelNegation();
    for (;;) {
      const isAmp = this.peekKind(TokenKind.Amp);
      const isColon = allowColon && this.peekKind(TokenKind.Colon) && this.peekLabelStart(1);
      if (!isAmp && !isColon) return left;
      this.advance();
      const right = this.parseLabelNegation();
      left = this.finish(start, { kind: Kind.LabelAnd, left, right, colon: isColon });
    }
  }

  private parseLabelNegation(): LabelExpression {
    const start = this.peek();
    if (this.optionalToken(TokenKind.Bang)) {
      const operand = this.parseLabelNegation();
      return this.finish(start, { kind: Kind.LabelNot, operand });
    }
    if (this.optionalToken(TokenKind.Percent)) return this.finish(start, { kind: Kind.LabelWildcard });
    if (this.peekDynamicLabel(0)) return this.parseDynamicLabel();
    if (this.optionalToken(TokenKind.LParen)) {
      const inner = this.parseLabelExpression(false);
      this.expectToken(TokenKind.RParen);
      return inner;
    }
    const name = this.parseName('a label or type name');
    return this.finish(start, { kind: Kind.LabelName, name });
  }

  /** `DynamicLabel : '$' ['all' | 'any'] '(' Expression ')'` (Neo4j 5.26). */
  protected parseDynamicLabel(): DynamicLabel {
    const start = this.advance();
    const quantifier = start.kind === TokenKind.Parameter ? (start.value.toLowerCase() as 'all' | 'any') : null;
    this.expectToken(TokenKind.LParen);
    const expression = this.parseExpression();
    this.expectToken(TokenKind.RParen);
    return this.finish<DynamicLabel>(start, { kind: Kind.DynamicLabel, expression, quantifier });
  }
}
