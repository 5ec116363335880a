import type { Expression, ListLiteral } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { Show, ShowTarget } from '../ast/schema.js';
import type { Token } from '../lexer/token.js';
import { SchemaParser } from './schema-parser.js';
import { TokenKind } from '../lexer/token-kind.js';

/** TERMINATE TRANSACTIONS and the id/name lists of SHOW TRANSACTIONS and SHOW SETTINGS. */
export abstract class TransactionCommandParser extends SchemaParser {
  /** The YIELD/WHERE/RETURN tail shared by every SHOW-style command. */
  protected abstract parseShowTail(start: Token, target: ShowTarget, filter: string | null, name: Expression | null): Show;

  /**
   * `NameList : Expression (',' Expression)*`: transaction ids or setting names, as one
   * expression (a string, a list or a parameter) or several, which become a list literal.
   */
  protected parseNameList(): Expression {
    const start = this.peek();
    const first = this.parseExpression();
    if (!this.peekKind(TokenKind.Comma)) return first;
    const items = [first];
    while (this.optionalToken(TokenKind.Comma)) items.push(this.parseExpression());
    return this.finish<ListLiteral>(start, { kind: Kind.ListLiteral, items });
  }

  /**
   * `TerminateTransactions : TERMINATE (TRANSACTION | TRANSACTIONS) NameList [YIELD ...]
   *  [WHERE Expression] [Return]`, after `TERMINATE`. Its rows are the outcomes
   *  (transactionId, username, message), so it is planned like a SHOW command.
   */
  protected parseTerminateTransactions(start: Token): Show {
    if (!this.optionalAnyKeyword('TRANSACTION', 'TRANSACTIONS')) this.unexpected("'TRANSACTIONS'");
    if (this.peekKeyword('YIELD') || this.peekKeyword('WHERE') || this.peekKeyword('RETURN') || this.peekKind(TokenKind.EOF)) {
      this.unexpected('a transaction id');
    }
    return this.parseShowTail(start, 'TERMINATE TRANSACTIONS', null, this.parseNameList());
  }
}
