import type {
  Clause,
  Create,
  Delete,
  Foreach,
  Merge,
  MergeAction,
  Remove,
  RemoveItem,
  RemoveLabels,
  RemoveProperty,
  SetClause,
  SetItem,
  SetLabels,
  SetProperty,
  SetVariable,
} from '../ast/clauses.js';
import type { Expression } from '../ast/expressions.js';
import type { DynamicLabel } from '../ast/patterns.js';
import { Kind } from '../ast/kinds.js';
import type { Token } from '../lexer/token.js';
import { TokenKind } from '../lexer/token-kind.js';
import { TypeParser } from './type-parser.js';

/** Writing clauses: CREATE, MERGE, SET, REMOVE, DELETE, FOREACH. */
export abstract class UpdateParser extends TypeParser {
  /** Parses one clause, or returns null when the next token starts none. */
  abstract parseClause(): Clause | null;

  /** `Create : CREATE Pattern` */
  protected parseCreate(): Create {
    const start = this.expectKeyword('CREATE');
    const pattern = this.parsePattern();
    return this.finish<Create>(start, { kind: Kind.Create, pattern });
  }

  /** `Insert : INSERT Pattern` (Cypher 25 / GQL): creates like CREATE. */
  protected parseInsert(): Create {
    const start = this.expectKeyword('INSERT');
    const pattern = this.parsePattern();
    return this.finish<Create>(start, { kind: Kind.Create, pattern, form: 'INSERT' });
  }

  /** `Merge : MERGE PatternPart (ON MATCH SetClause | ON CREATE SetClause)*` */
  protected parseMerge(): Merge {
    const start = this.expectKeyword('MERGE');
    const pattern = this.parsePatternPart();
    const actions: MergeAction[] = [];
    while (this.peekKeyword('ON')) {
      const actionStart = this.advance();
      const on = this.optionalKeyword('CREATE') ? 'CREATE' : (this.expectKeyword('MATCH'), 'MATCH');
      this.expectKeyword('SET');
      const items = this.delimitedMany(TokenKind.Comma, () => this.parseSetItem());
      actions.push(this.finish<MergeAction>(actionStart, { kind: Kind.MergeAction, on, items }));
    }
    return this.finish<Merge>(start, { kind: Kind.Merge, pattern, actions });
  }

  /** `Set : SET SetItem (',' SetItem)*` */
  protected parseSet(): SetClause {
    const start = this.expectKeyword('SET');
    const items = this.delimitedMany(TokenKind.Comma, () => this.parseSetItem());
    return this.finish<SetClause>(start, { kind: Kind.Set, items });
  }

  /**
   * `SetItem : PropertyExpression '=' Expression | Variable '=' Expression |
   *  Variable '+=' Expression | Variable NodeLabels`
   */
  private parseSetItem(): SetItem {
    const start = this.peek();
    if (this.peekName() && (this.peekKind(TokenKind.Eq, 1) || this.peekKind(TokenKind.PlusEq, 1))) {
      const variable = this.parseVariable();
      const merge = this.advance().kind === TokenKind.PlusEq;
      const value = this.parseExpression();
      return this.finish<SetVariable>(start, { kind: Kind.SetVariable, variable, value, merge });
    }
    if (this.peekLabelAssignment()) {
      const variable = this.parseVariable();
      const { labels, dynamicLabels } = this.parseNodeLabels();
      return this.finish<SetLabels>(start, { kind: Kind.SetLabels, variable, labels, dynamicLabels });
    }
    const target = this.parsePropertyTarget(start);
    this.expectToken(TokenKind.Eq);
    const value = this.parseExpression();
    return this.finish<SetProperty>(start, { kind: Kind.SetProperty, target, value });
  }

  /** True at `v:Label` or `v IS Label`. */
  private peekLabelAssignment(): boolean {
    if (!this.peekName()) return false;
    if (this.peekKind(TokenKind.Colon, 1)) return true;
    return this.peekKeyword('IS', 1) && (this.peekName(2) || this.peekDynamicLabel(2));
  }

  /**
   * `NodeLabels : (':' LabelItem ('&' LabelItem)*)+ | IS LabelItem ('&' LabelItem)*` where
   * `LabelItem : LabelName | DynamicLabel`.
   */
  private parseNodeLabels(): { labels: string[]; dynamicLabels: DynamicLabel[] } {
    const labels: string[] = [];
    const dynamicLabels: DynamicLabel[] = [];
    const item = (): void => {
      if (this.peekDynamicLabel(0)) dynamicLabels.push(this.parseDynamicLabel());
      else labels.push(this.parseName('a label name'));
    };
    const conjunction = (): void => {
      item();
      while (this.optionalToken(TokenKind.Amp)) item();
    };
    if (this.optionalKeyword('IS')) conjunction();
    else while (this.optionalToken(TokenKind.Colon)) conjunction();
    return { labels, dynamicLabels };
  }

  /** `PropertyExpression : Atom ('.' PropertyKey | '[' Expression ']')+` */
  private parsePropertyTarget(start: Token): Expression {
    const target = this.parsePostfixExpression();
    if (target.kind !== Kind.PropertyAccess && target.kind !== Kind.Subscript) {
      this.unexpected("a property ('.')", start);
    }
    return target;
  }

  /** `Remove : REMOVE RemoveItem (',' RemoveItem)*` */
  protected parseRemove(): Remove {
    const start = this.expectKeyword('REMOVE');
    const items = this.delimitedMany(TokenKind.Comma, () => this.parseRemoveItem());
    return this.finish<Remove>(start, { kind: Kind.Remove, items });
  }

  /** `RemoveItem : Variable NodeLabels | PropertyExpression` */
  private parseRemoveItem(): RemoveItem {
    const start = this.peek();
    if (this.peekLabelAssignment()) {
      const variable = this.parseVariable();
      const { labels, dynamicLabels } = this.parseNodeLabels();
      return this.finish<RemoveLabels>(start, { kind: Kind.RemoveLabels, variable, labels, dynamicLabels });
    }
    const target = this.parsePropertyTarget(start);
    return this.finish<RemoveProperty>(start, { kind: Kind.RemoveProperty, target });
  }

  /** `Delete : [DETACH | NODETACH] DELETE Expression (',' Expression)*` */
  protected parseDelete(): Delete {
    const start = this.peek();
    const detach = this.optionalKeyword('DETACH');
    if (!detach) this.optionalKeyword('NODETACH');
    this.expectKeyword('DELETE');
    const expressions = this.delimitedMany(TokenKind.Comma, () => this.parseExpression());
    return this.finish<Delete>(start, { kind: Kind.Delete, detach, expressions });
  }

  /** `Foreach : FOREACH '(' Variable IN Expression '|' Clause+ ')'` */
  protected parseForeach(): Foreach {
    const start = this.expectKeyword('FOREACH');
    this.expectToken(TokenKind.LParen);
    const variable = this.parseVariable();
    this.expectKeyword('IN');
    const list = this.parseExpression();
    this.expectToken(TokenKind.Pipe);
    const clauses: Clause[] = [];
    for (let clause = this.parseClause(); clause !== null; clause = this.parseClause()) clauses.push(clause);
    if (clauses.length === 0) this.unexpected('an updating clause');
    this.expectToken(TokenKind.RParen);
    return this.finish<Foreach>(start, { kind: Kind.Foreach, variable, list, clauses });
  }
}
