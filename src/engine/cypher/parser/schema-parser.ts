import type { MapLiteral, Parameter, Variable } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { ConstraintType, CreateConstraint, CreateIndex, DropConstraint, DropIndex, IndexType, SchemaCommand } from '../ast/schema.js';
import type { Token } from '../lexer/token.js';
import { TokenKind } from '../lexer/token-kind.js';
import { ClauseParser } from './clause-parser.js';

const indexTypes: readonly IndexType[] = ['RANGE', 'TEXT', 'POINT', 'LOOKUP', 'FULLTEXT', 'VECTOR', 'BTREE'];

/** Index and constraint commands (CREATE/DROP INDEX, CREATE/DROP CONSTRAINT). */
export abstract class SchemaParser extends ClauseParser {
  /** True when the statement starts with a schema CREATE (after CREATE [OR REPLACE]). */
  protected peekSchemaCreate(offset: number): boolean {
    if (this.peekKeyword('INDEX', offset) || this.peekKeyword('CONSTRAINT', offset)) return true;
    return indexTypes.some((type) => this.peekKeyword(type, offset)) && this.peekKeyword('INDEX', offset + 1);
  }

  /** `CreateSchema : CREATE [OR REPLACE] (CreateIndex | CreateConstraint)` */
  protected parseCreateSchema(start: Token, orReplace: boolean): SchemaCommand {
    if (this.peekKeyword('CONSTRAINT')) return this.parseCreateConstraint(start, orReplace);
    return this.parseCreateIndex(start, orReplace);
  }

  /** `[name] [IF NOT EXISTS]` after INDEX / CONSTRAINT. */
  private parseSchemaName(): { name: string | Parameter | null; ifNotExists: boolean } {
    let name: string | Parameter | null = null;
    if (this.peekKind(TokenKind.Parameter)) name = this.parseParameter();
    else if (this.peekName() && !this.peekKeyword('FOR') && !this.peekKeyword('ON') && !this.peekKeywords('IF', 'NOT'))
      name = this.parseName();
    const ifNotExists = this.optionalKeywords('IF', 'NOT', 'EXISTS');
    return { name, ifNotExists };
  }

  /**
   * `CreateIndex : [IndexType] INDEX [name] [IF NOT EXISTS] FOR EntityPattern ON (PropertyList | EACH ...)
   *  [OPTIONS Map] | INDEX ON ':' Label '(' PropertyKey, ... ')'`
   */
  private parseCreateIndex(start: Token, orReplace: boolean): CreateIndex {
    let indexType: IndexType | null = null;
    for (const type of indexTypes) if (this.optionalKeyword(type)) indexType = type;
    this.expectKeyword('INDEX');
    if (this.optionalKeyword('ON')) {
      const [label, properties] = this.parseLegacyIndexTarget();
      return this.finish<CreateIndex>(start, {
        kind: Kind.CreateIndex,
        indexType,
        name: null,
        ifNotExists: false,
        orReplace,
        entity: 'NODE',
        variable: null,
        labels: [label],
        properties,
        lookupFunction: null,
        options: null,
      });
    }
    const { name, ifNotExists } = this.parseSchemaName();
    this.expectKeyword('FOR');
    const { entity, variable, labels } = this.parseEntityPattern();
    this.expectKeyword('ON');
    let properties: string[] = [];
    let lookupFunction: string | null = null;
    if (this.optionalKeyword('EACH') || indexType === 'LOOKUP') {
      if (indexType === 'LOOKUP') {
        lookupFunction = this.parseName('labels or type').toLowerCase();
        this.optionalMany(TokenKind.LParen, () => this.parseVariable(), TokenKind.RParen);
      } else {
        properties = this.optionalMany(TokenKind.LBracket, () => this.parsePropertyOf(variable), TokenKind.RBracket);
      }
    } else if (this.peekKind(TokenKind.LParen)) {
      properties = this.optionalMany(TokenKind.LParen, () => this.parsePropertyOf(variable), TokenKind.RParen);
    } else {
      properties = [this.parsePropertyOf(variable)];
    }
    const options = this.parseOptions();
    return this.finish<CreateIndex>(start, {
      kind: Kind.CreateIndex,
      indexType,
      name,
      ifNotExists,
      orReplace,
      entity,
      variable,
      labels,
      properties,
      lookupFunction,
      options,
    });
  }

  /** `':' Label '(' PropertyKey (',' PropertyKey)* ')'` of the legacy index syntax. */
  private parseLegacyIndexTarget(): [string, string[]] {
    this.expectToken(TokenKind.Colon);
    const label = this.parseName('a label name');
    const properties = this.optionalMany(TokenKind.LParen, () => this.parseName('a property key name'), TokenKind.RParen);
    return [label, properties];
  }

  /** `'(' Variable [':' Label ('|' Label)*] ')'` or `'()' '-' '[' Variable [':' Type ('|' Type)*] ']' '-' ['>'] '()'`. */
  private parseEntityPattern(): { entity: 'NODE' | 'RELATIONSHIP'; variable: Variable; labels: string[] } {
    this.expectToken(TokenKind.LParen);
    if (this.optionalToken(TokenKind.RParen)) {
      this.optionalToken(TokenKind.Lt);
      this.expectToken(TokenKind.Minus);
      this.expectToken(TokenKind.LBracket);
      const variable = this.parseVariable();
      const labels = this.parseLabelList();
      this.expectToken(TokenKind.RBracket);
      this.expectToken(TokenKind.Minus);
      this.optionalToken(TokenKind.Gt);
      this.expectToken(TokenKind.LParen);
      this.expectToken(TokenKind.RParen);
      return { entity: 'RELATIONSHIP', variable, labels };
    }
    const variable = this.parseVariable();
    const labels = this.parseLabelList();
    this.expectToken(TokenKind.RParen);
    return { entity: 'NODE', variable, labels };
  }

  private parseLabelList(): string[] {
    if (!this.optionalToken(TokenKind.Colon)) return [];
    const labels = [this.parseName('a label name')];
    while (this.optionalToken(TokenKind.Pipe)) labels.push(this.parseName('a label name'));
    return labels;
  }

  /** `Variable '.' PropertyKey`. */
  private parsePropertyOf(variable: Variable | null): string {
    const token = this.peek();
    const name = this.parseName();
    if (variable !== null && name !== variable.name) {
      throw this.errorAt(token, `Variable \`${name}\` not defined`, 'UndefinedVariable');
    }
    this.expectToken(TokenKind.Dot);
    return this.parseName('a property key name');
  }

  /** `[OPTIONS MapLiteral | OPTIONS Parameter]` */
  protected parseOptions(): MapLiteral | Parameter | null {
    if (!this.optionalKeyword('OPTIONS')) return null;
    return this.peekKind(TokenKind.Parameter) ? this.parseParameter() : this.parseMapLiteral();
  }

  /**
   * `CreateConstraint : CONSTRAINT [name] [IF NOT EXISTS] (FOR | ON) EntityPattern (REQUIRE | ASSERT)
   *  PropertyList IS (UNIQUE | NODE KEY | RELATIONSHIP KEY | KEY | NOT NULL | [TYPED | '::'] Type) [OPTIONS Map]`
   */
  private parseCreateConstraint(start: Token, orReplace: boolean): CreateConstraint {
    this.expectKeyword('CONSTRAINT');
    const { name, ifNotExists } = this.parseSchemaName();
    if (!this.optionalKeyword('FOR')) this.expectKeyword('ON');
    const { entity, variable, labels } = this.parseEntityPattern();
    if (labels.length !== 1) this.unexpected('a single label or relationship type');
    if (!this.optionalKeyword('REQUIRE')) this.expectKeyword('ASSERT');
    const properties = this.peekKind(TokenKind.LParen)
      ? this.optionalMany(TokenKind.LParen, () => this.parsePropertyOf(variable), TokenKind.RParen)
      : [this.parsePropertyOf(variable)];
    let constraintType: ConstraintType;
    let propertyType = null;
    if (this.optionalToken(TokenKind.ColonColon)) {
      constraintType = 'PROPERTY_TYPE';
      propertyType = this.parseType();
    } else {
      this.expectKeyword('IS');
      if (this.optionalKeyword('TYPED') || this.optionalToken(TokenKind.ColonColon)) {
        constraintType = 'PROPERTY_TYPE';
        propertyType = this.parseType();
      } else {
        constraintType = this.parseConstraintKind(entity);
      }
    }
    const options = this.parseOptions();
    return this.finish<CreateConstraint>(start, {
      kind: Kind.CreateConstraint,
      name,
      ifNotExists,
      orReplace,
      entity,
      variable,
      labelOrType: labels[0]!,
      properties,
      constraintType,
      propertyType,
      options,
    });
  }

  /** `UNIQUE | [NODE | REL | RELATIONSHIP] (KEY | UNIQUE) | NOT NULL` */
  private parseConstraintKind(entity: 'NODE' | 'RELATIONSHIP'): ConstraintType {
    if (this.optionalKeywords('NOT', 'NULL')) return 'NOT_NULL';
    this.optionalAnyKeyword('NODE', 'RELATIONSHIP', 'REL');
    if (this.optionalKeyword('UNIQUE')) return 'UNIQUE';
    this.expectKeyword('KEY');
    return entity === 'NODE' ? 'NODE_KEY' : 'RELATIONSHIP_KEY';
  }

  /** `DropIndex : DROP INDEX (name [IF EXISTS] | ON ':' Label '(' PropertyKey, ... ')')` */
  protected parseDropIndex(start: Token): DropIndex {
    this.expectKeyword('INDEX');
    if (this.optionalKeyword('ON')) {
      const [label, properties] = this.parseLegacyIndexTarget();
      return this.finish<DropIndex>(start, { kind: Kind.DropIndex, name: null, ifExists: false, label, properties });
    }
    const name = this.peekKind(TokenKind.Parameter) ? this.parseParameter() : this.parseName('an index name');
    const ifExists = this.optionalKeywords('IF', 'EXISTS');
    return this.finish<DropIndex>(start, { kind: Kind.DropIndex, name, ifExists, label: null, properties: [] });
  }

  /** `DropConstraint : DROP CONSTRAINT name [IF EXISTS]` */
  protected parseDropConstraint(start: Token): DropConstraint {
    this.expectKeyword('CONSTRAINT');
    const name = this.peekKind(TokenKind.Parameter) ? this.parseParameter() : this.parseName('a constraint name');
    const ifExists = this.optionalKeywords('IF', 'EXISTS');
    return this.finish<DropConstraint>(start, { kind: Kind.DropConstraint, name, ifExists });
  }
}
