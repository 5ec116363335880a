import type { CypherTypeNode, ListType, SimpleType, UnionType } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { Token } from '../lexer/token.js';
import { TokenKind } from '../lexer/token-kind.js';
import { PatternParser } from './pattern-parser.js';
import { vectorCoordinateType } from '../../values/vector.js';
import type { VectorCoordinateType } from '../../values/types.js';

/** Single-word type names and their canonical spelling. */
const simpleTypeNames: ReadonlyMap<string, string> = new Map([
  ['NOTHING', 'NOTHING'],
  ['NULL', 'NULL'],
  ['BOOL', 'BOOLEAN'],
  ['BOOLEAN', 'BOOLEAN'],
  ['VARCHAR', 'STRING'],
  ['STRING', 'STRING'],
  ['INT', 'INTEGER'],
  ['INTEGER', 'INTEGER'],
  ['INT64', 'INTEGER'],
  ['INTEGER64', 'INTEGER'],
  ['FLOAT', 'FLOAT'],
  ['FLOAT64', 'FLOAT'],
  ['DATE', 'DATE'],
  ['DURATION', 'DURATION'],
  ['POINT', 'POINT'],
  ['NODE', 'NODE'],
  ['VERTEX', 'NODE'],
  ['RELATIONSHIP', 'RELATIONSHIP'],
  ['EDGE', 'RELATIONSHIP'],
  ['MAP', 'MAP'],
  ['PATH', 'PATH'],
]);

/** Cypher types for `IS ::` predicates and property type constraints. */
export abstract class TypeParser extends PatternParser {
  /** `Type : TypePart ('|' TypePart)*` */
  parseType(): CypherTypeNode {
    const start = this.peek();
    const types = [this.parseTypePart()];
    while (this.pipeContinuesLabels && this.optionalToken(TokenKind.Pipe)) types.push(this.parseTypePart());
    if (types.length === 1) return types[0]!;
    return this.finish<UnionType>(start, { kind: Kind.UnionType, types });
  }

  /** `TypePart : TypeName [NOT NULL | '!'] ((LIST | ARRAY) [NOT NULL | '!'])*` */
  private parseTypePart(): CypherTypeNode {
    const start = this.peek();
    let type = this.parseTypeName(start);
    while (this.peekKeyword('LIST') || this.peekKeyword('ARRAY')) {
      this.advance();
      const notNull = this.parseNotNull();
      type = this.finish<ListType>(start, { kind: Kind.ListType, elementType: type, notNull });
    }
    return type;
  }

  private parseNotNull(): boolean {
    if (this.optionalToken(TokenKind.Bang)) return true;
    return this.optionalKeywords('NOT', 'NULL');
  }

  /** `TypeName`, including multi-word names and `LIST<T>`, `ANY<T | U>`. */
  private parseTypeName(start: Token): CypherTypeNode {
    const simple = (name: string): SimpleType => {
      const notNull = this.parseNotNull();
      return this.finish<SimpleType>(start, { kind: Kind.SimpleType, name, notNull });
    };
    if (this.peekKeyword('LIST') || this.peekKeyword('ARRAY')) {
      this.advance();
      this.expectToken(TokenKind.Lt);
      const elementType = this.parseType();
      this.expectToken(TokenKind.Gt);
      const notNull = this.parseNotNull();
      return this.finish<ListType>(start, { kind: Kind.ListType, elementType, notNull });
    }
    if (this.optionalKeyword('ANY')) {
      if (this.optionalToken(TokenKind.Lt)) {
        const inner = this.parseType();
        this.expectToken(TokenKind.Gt);
        return inner;
      }
      if (this.optionalKeyword('VALUE')) return simple('ANY');
      if (this.optionalKeywords('PROPERTY', 'VALUE')) return simple('PROPERTY VALUE');
      for (const [word, name] of [
        ['NODE', 'NODE'],
        ['VERTEX', 'NODE'],
        ['RELATIONSHIP', 'RELATIONSHIP'],
        ['EDGE', 'RELATIONSHIP'],
        ['MAP', 'MAP'],
        ['PATH', 'PATH'],
      ] as const) {
        if (this.optionalKeyword(word)) return simple(name);
      }
      return simple('ANY');
    }
    if (this.optionalKeywords('PROPERTY', 'VALUE')) return simple('PROPERTY VALUE');
    if (this.optionalKeywords('SIGNED', 'INTEGER')) return simple('INTEGER');
    if (this.optionalKeyword('VECTOR')) return simple(this.parseVectorTypeSuffix());
    if (this.optionalKeyword('LOCAL')) return simple(this.parseTemporalWord('LOCAL'));
    if (this.optionalKeyword('ZONED')) return simple(this.parseTemporalWord('ZONED'));
    if (this.peekKeyword('TIME') || this.peekKeyword('TIMESTAMP')) {
      const base = this.advance().value.toUpperCase() === 'TIME' ? 'TIME' : 'DATETIME';
      if (this.optionalKeywords('WITHOUT', 'TIME', 'ZONE') || this.optionalKeywords('WITHOUT', 'TIMEZONE')) return simple(`LOCAL ${base}`);
      if (!this.optionalKeywords('WITH', 'TIME', 'ZONE')) this.optionalKeywords('WITH', 'TIMEZONE');
      return simple(`ZONED ${base}`);
    }
    const token = this.peek();
    const name = token.kind === TokenKind.Name ? simpleTypeNames.get(token.value.toUpperCase()) : undefined;
    if (name === undefined) this.unexpected('a type name');
    this.advance();
    return simple(name);
  }

  /**
   * The rest of `VECTOR [<coordinateType>] [(dimension)]` or `VECTOR(dimension, coordinateType)`,
   * as the canonical name `VECTOR`, `VECTOR<INTEGER8>`, `VECTOR(3)` or `VECTOR<INTEGER8>(3)`.
   */
  private parseVectorTypeSuffix(): string {
    let coordinateType: string | null = null;
    let dimension: string | null = null;
    if (this.optionalToken(TokenKind.Lt)) {
      coordinateType = this.parseVectorCoordinateType();
      this.expectToken(TokenKind.Gt);
    }
    if (this.peekKind(TokenKind.LParen) && this.peekKind(TokenKind.Integer, 1)) {
      this.advance();
      dimension = BigInt(this.advance().value).toString();
      if (coordinateType === null && this.optionalToken(TokenKind.Comma)) coordinateType = this.parseVectorCoordinateType();
      this.expectToken(TokenKind.RParen);
    }
    return `VECTOR${coordinateType === null ? '' : `<${coordinateType}>`}${dimension === null ? '' : `(${dimension})`}`;
  }

  /** A vector coordinate type (`INT8`, `FLOAT32`, `SIGNED INTEGER`, ...) with an ignored `NOT NULL`. */
  parseVectorCoordinateType(): VectorCoordinateType {
    const words = this.optionalKeywords('SIGNED', 'INTEGER')
      ? 'SIGNED INTEGER'
      : this.peek().kind === TokenKind.Name
        ? this.peek().value
        : '';
    const type = vectorCoordinateType(words);
    if (type === undefined) this.unexpected('a vector coordinate type (INTEGER8, INTEGER16, INTEGER32, INTEGER, FLOAT32, FLOAT)');
    if (words !== 'SIGNED INTEGER') this.advance();
    this.parseNotNull();
    return type;
  }

  private parseTemporalWord(prefix: string): string {
    if (this.optionalKeyword('TIME')) return `${prefix} TIME`;
    if (this.optionalKeyword('DATETIME')) return `${prefix} DATETIME`;
    this.unexpected("'TIME' or 'DATETIME'");
  }
}
