import type {
  CallProcedure,
  CallSubquery,
  Clause,
  Finish,
  InTransactions,
  LoadCsv,
  Match,
  OrderBy,
  ProjectionBody,
  ProjectionItem,
  Return,
  SortItem,
  Unwind,
  Use,
  UsingHint,
  With,
  YieldItem,
} from '../ast/clauses.js';
import type { Expression, Variable } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { Query, SingleQuery, Union } from '../ast/statements.js';
import type { Token } from '../lexer/token.js';
import { TokenKind } from '../lexer/token-kind.js';
import { UpdateParser } from './update-parser.js';
import { conditionalQuery, nextQuery, type ConditionalBranch } from './gql-composition.js';
import { searchPatternProblem, vectorSearchClauses, type VectorSearch } from './search-subclause.js';

/** The keywords a clause can start with, as listed in "expected ..." messages. */
export const clauseKeywords = [
  'CALL',
  'CREATE',
  'DELETE',
  'DETACH',
  'FINISH',
  'FOREACH',
  'LOAD',
  'MATCH',
  'MERGE',
  'NODETACH',
  'OPTIONAL',
  'REMOVE',
  'RETURN',
  'SET',
  'UNWIND',
  'USE',
  'WITH',
];

/** Queries and the reading, projecting and subquery clauses. */
export abstract class ClauseParser extends UpdateParser {
  /** Clauses one production yields after the one it returns (`LET a = 1, b = a` is two bindings). */
  private readonly pendingClauses: Clause[] = [];

  /** `Query : SingleQuery (UNION [ALL | DISTINCT] SingleQuery)*` */
  parseQuery(): Query {
    const start = this.peek();
    let query: Query;
    if (this.cypherVersion !== '5' && this.peekKeyword('WHEN')) {
      query = this.parseConditionalQuery();
    } else {
      query = this.parseSingleQuery();
      while (this.optionalKeyword('UNION')) {
        const all = this.optionalKeyword('ALL');
        if (!all) this.optionalKeyword('DISTINCT');
        const right = this.parseSingleQuery();
        query = this.finish<Union>(start, { kind: Kind.Union, all, left: query, right });
      }
    }
    if (this.cypherVersion !== '5' && this.optionalKeyword('NEXT')) return nextQuery(query, this.parseQuery());
    return query;
  }

  /** `ConditionalQuery : (WHEN Expression THEN Query)+ [ELSE Query]` (Cypher 25; see gql-composition.ts). */
  private parseConditionalQuery(): Query {
    const branches: ConditionalBranch[] = [];
    while (this.optionalKeyword('WHEN')) {
      const condition = this.parseExpression();
      this.expectKeyword('THEN');
      branches.push({ condition, query: this.parseBranchQuery() });
    }
    if (this.optionalKeyword('ELSE')) branches.push({ condition: null, query: this.parseBranchQuery() });
    return conditionalQuery(branches);
  }

  private parseBranchQuery(): Query {
    const start = this.peek();
    let query: Query = this.parseSingleQuery();
    while (this.optionalKeyword('UNION')) {
      const all = this.optionalKeyword('ALL');
      if (!all) this.optionalKeyword('DISTINCT');
      query = this.finish<Union>(start, { kind: Kind.Union, all, left: query, right: this.parseSingleQuery() });
    }
    return query;
  }

  /** `SingleQuery : Clause+` */
  protected parseSingleQuery(): SingleQuery {
    const start = this.peek();
    const clauses: Clause[] = [];
    for (let clause = this.parseClause(); clause !== null; clause = this.parseClause()) {
      clauses.push(clause, ...this.pendingClauses);
      this.pendingClauses.length = 0;
    }
    if (clauses.length === 0) this.unexpected(clauseKeywords.map((word) => `'${word}'`).join(', '));
    return this.finish<SingleQuery>(start, { kind: Kind.SingleQuery, clauses });
  }

  /** `Clause : Use | Match | Unwind | With | Return | Call | LoadCsv | Finish | Create | Merge | Set | Remove | Delete | Foreach` */
  parseClause(): Clause | null {
    if (!this.peekKind(TokenKind.Name)) return null;
    switch (this.peek().value.toUpperCase()) {
      case 'USE':
        return this.parseUse();
      case 'MATCH':
        return this.parseMatch();
      case 'OPTIONAL':
        if (this.peekKeyword('CALL', 1)) return this.parseCall();
        return this.parseMatch();
      case 'UNWIND':
        return this.parseUnwind();
      case 'WITH':
        return this.parseWith();
      case 'LET':
        return this.cypher25Clause() ? this.parseLet() : null;
      case 'FILTER':
        return this.cypher25Clause() ? this.parseFilter() : null;
      case 'INSERT':
        return this.cypher25Clause() ? this.parseInsert() : null;
      case 'RETURN':
        return this.parseReturn();
      case 'CALL':
        return this.parseCall();
      case 'LOAD':
        return this.parseLoadCsv();
      case 'FINISH':
        return this.finish<Finish>(this.advance(), { kind: Kind.Finish });
      case 'CREATE':
        return this.parseCreate();
      case 'MERGE':
        return this.parseMerge();
      case 'SET':
        return this.parseSet();
      case 'REMOVE':
        return this.parseRemove();
      case 'DELETE':
      case 'DETACH':
      case 'NODETACH':
        return this.parseDelete();
      case 'FOREACH':
        return this.parseForeach();
      default:
        return null;
    }
  }

  /** `Use : USE [GRAPH] Expression [AT (VERSION | TIME) Expression]` */
  private parseUse(): Use {
    const start = this.expectKeyword('USE');
    if (this.peekKeyword('GRAPH') && this.peekName(1)) this.advance();
    const graph = this.parsePostfixExpression();
    if (this.peekKeywords('AT', 'VERSION') || this.peekKeywords('AT', 'TIME')) {
      this.advance();
      const kind = this.peekKeyword('VERSION') ? 'VERSION' : 'TIME';
      this.advance();
      return this.finish<Use>(start, { kind: Kind.Use, graph, at: { kind, value: this.parseExpression() } });
    }
    return this.finish<Use>(start, { kind: Kind.Use, graph });
  }

  /** `Match : [OPTIONAL] MATCH Pattern Hint* [Search] [WHERE Expression]` (Search in Cypher 25 only). */
  private parseMatch(): Clause {
    const start = this.peek();
    const optional = this.optionalKeyword('OPTIONAL');
    this.expectKeyword('MATCH');
    const pattern = this.parsePattern();
    const hints: UsingHint[] = [];
    while (this.peekKeyword('USING')) hints.push(this.parseHint());
    const searchStart = this.peek();
    const search = this.cypherVersion !== '5' && this.peekKeyword('SEARCH') ? this.parseSearch() : null;
    const where = this.optionalKeyword('WHERE') ? this.parseExpression() : null;
    const match = this.finish<Match>(start, { kind: Kind.Match, optional, pattern, hints, where });
    if (search === null) return match;
    const problem = searchPatternProblem(match, search.binding.name);
    if (problem !== null) throw this.errorAt(searchStart, problem);
    const [first, ...rest] = vectorSearchClauses(match, search);
    this.pendingClauses.push(...rest);
    return first!;
  }

  /** `Search : SEARCH Variable IN '(' VECTOR INDEX Name FOR Expression LIMIT Expression ')' [SCORE AS Variable]` */
  private parseSearch(): VectorSearch {
    this.expectKeyword('SEARCH');
    const binding = this.parseVariable();
    this.expectKeyword('IN');
    this.expectToken(TokenKind.LParen);
    this.expectKeyword('VECTOR');
    this.expectKeyword('INDEX');
    const indexName = this.parseName('an index name');
    this.expectKeyword('FOR');
    const query = this.parseExpression();
    if (this.peekKeyword('WHERE')) {
      throw this.errorAt(
        this.peek(),
        'WHERE inside SEARCH (vector search with filters) is not supported: vector indexes here store no additional properties; filter in the WHERE of the MATCH instead',
      );
    }
    this.expectKeyword('LIMIT');
    const limit = this.parseExpression();
    this.expectToken(TokenKind.RParen);
    const score = this.optionalKeyword('SCORE') ? (this.expectKeyword('AS'), this.parseVariable()) : null;
    return { binding, indexName, query, limit, score };
  }

  /**
   * `Hint : USING [RANGE | TEXT | POINT] INDEX [SEEK] Variable ':' LabelName '(' PropertyKey (',' PropertyKey)* ')'
   *  | USING SCAN Variable ':' LabelName | USING JOIN ON Variable (',' Variable)*`
   */
  private parseHint(): UsingHint {
    const start = this.expectKeyword('USING');
    if (this.optionalKeyword('JOIN')) {
      this.expectKeyword('ON');
      const variables = this.delimitedMany(TokenKind.Comma, () => this.parseVariable());
      return this.finish<UsingHint>(start, {
        kind: Kind.UsingHint,
        hint: 'JOIN',
        indexType: null,
        variables,
        labelOrType: null,
        properties: [],
      });
    }
    if (this.optionalKeyword('SCAN')) {
      const variable = this.parseVariable();
      this.expectToken(TokenKind.Colon);
      const labelOrType = this.parseName('a label name');
      return this.finish<UsingHint>(start, {
        kind: Kind.UsingHint,
        hint: 'SCAN',
        indexType: null,
        variables: [variable],
        labelOrType,
        properties: [],
      });
    }
    let indexType: UsingHint['indexType'] = null;
    for (const type of ['RANGE', 'TEXT', 'POINT'] as const) if (this.optionalKeyword(type)) indexType = type;
    this.expectKeyword('INDEX');
    const hint = this.optionalKeyword('SEEK') ? 'INDEX SEEK' : 'INDEX';
    const variable = this.parseVariable();
    this.expectToken(TokenKind.Colon);
    const labelOrType = this.parseName('a label name');
    const properties = this.optionalMany(TokenKind.LParen, () => this.parseName('a property key name'), TokenKind.RParen);
    return this.finish<UsingHint>(start, { kind: Kind.UsingHint, hint, indexType, variables: [variable], labelOrType, properties });
  }

  /** `Unwind : UNWIND Expression AS Variable` */
  private parseUnwind(): Unwind {
    const start = this.expectKeyword('UNWIND');
    const expression = this.parseExpression();
    this.expectKeyword('AS');
    const variable = this.parseVariable();
    return this.finish<Unwind>(start, { kind: Kind.Unwind, expression, variable });
  }

  /** `With : WITH ProjectionBody [WHERE Expression]` */
  private parseWith(): With {
    const start = this.expectKeyword('WITH');
    const projection = this.parseProjectionBody();
    const where = this.optionalKeyword('WHERE') ? this.parseExpression() : null;
    return this.finish<With>(start, { kind: Kind.With, projection, where });
  }

  /** LET, FILTER and INSERT start a clause only outside `CYPHER 5` and when followed by what they need. */
  private cypher25Clause(): boolean {
    if (this.cypherVersion === '5') return false;
    const word = this.peek().value.toUpperCase();
    if (word === 'LET') return this.peekKind(TokenKind.Name, 1) && this.peekKind(TokenKind.Eq, 2);
    if (word === 'INSERT')
      return this.peekKind(TokenKind.LParen, 1) || (this.peekKind(TokenKind.Name, 1) && this.peekKind(TokenKind.Eq, 2));
    return !this.peekKind(TokenKind.LParen, 1);
  }

  /** `Let : LET Variable '=' Expression (',' Variable '=' Expression)*` (the last binding; earlier ones are pushed). */
  private parseLet(): With {
    const start = this.expectKeyword('LET');
    const bindings: With[] = [];
    do {
      const itemStart = this.peek();
      const alias = this.parseVariable();
      this.expectToken(TokenKind.Eq);
      const expressionStart = this.peek();
      const expression = this.parseExpression();
      const item = this.finish<ProjectionItem>(expressionStart, {
        kind: Kind.ProjectionItem,
        expression,
        alias,
        text: this.sourceFrom(expressionStart),
      });
      const projection = this.finish<ProjectionBody>(itemStart, {
        kind: Kind.ProjectionBody,
        distinct: false,
        star: true,
        items: [item],
        orderBy: null,
        skip: null,
        limit: null,
      });
      bindings.push(
        this.finish<With>(bindings.length === 0 ? start : itemStart, { kind: Kind.With, projection, where: null, form: 'LET' }),
      );
    } while (this.optionalToken(TokenKind.Comma));
    this.pendingClauses.push(...bindings.slice(1));
    return bindings[0]!;
  }

  /** `Filter : FILTER [WHERE] Expression` */
  private parseFilter(): With {
    const start = this.expectKeyword('FILTER');
    this.optionalKeyword('WHERE');
    const where = this.parseExpression();
    const projection = this.finish<ProjectionBody>(start, {
      kind: Kind.ProjectionBody,
      distinct: false,
      star: true,
      items: [],
      orderBy: null,
      skip: null,
      limit: null,
    });
    return this.finish<With>(start, { kind: Kind.With, projection, where, form: 'FILTER' });
  }

  /** `Return : RETURN ProjectionBody` */
  protected parseReturn(): Return {
    const start = this.expectKeyword('RETURN');
    const projection = this.parseProjectionBody();
    return this.finish<Return>(start, { kind: Kind.Return, projection });
  }

  /**
   * `ProjectionBody : [DISTINCT] ('*' (',' ProjectionItem)* | ProjectionItem (',' ProjectionItem)*)
   *  [ORDER BY SortItem (',' SortItem)*] [(SKIP | OFFSET) Expression] [LIMIT Expression]`
   */
  private parseProjectionBody(): ProjectionBody {
    const start = this.peek();
    const distinct = this.optionalKeyword('DISTINCT');
    const star = this.optionalToken(TokenKind.Star);
    const items: ProjectionItem[] = [];
    if (!star || this.optionalToken(TokenKind.Comma)) {
      do items.push(this.parseProjectionItem());
      while (this.optionalToken(TokenKind.Comma));
    }
    const orderBy = this.parseOrderBy();
    const skip = this.optionalAnyKeyword('SKIP', 'OFFSET') ? this.parseExpression() : null;
    const limit = this.optionalKeyword('LIMIT') ? this.parseExpression() : null;
    return this.finish<ProjectionBody>(start, { kind: Kind.ProjectionBody, distinct, star, items, orderBy, skip, limit });
  }

  /** `ProjectionItem : Expression [AS Variable]`; `text` keeps the source for the column name. */
  private parseProjectionItem(): ProjectionItem {
    const start = this.peek();
    const expression = this.parseExpression();
    const text = this.sourceFrom(start);
    const alias = this.optionalKeyword('AS') ? this.parseVariable() : null;
    return this.finish<ProjectionItem>(start, { kind: Kind.ProjectionItem, expression, alias, text });
  }

  /** `OrderBy : ORDER BY SortItem (',' SortItem)*` */
  protected parseOrderBy(): OrderBy | null {
    const start = this.peek();
    if (!this.optionalKeywords('ORDER', 'BY')) return null;
    const items = this.delimitedMany(TokenKind.Comma, () => {
      const itemStart = this.peek();
      const expression = this.parseExpression();
      const direction = this.optionalAnyKeyword('ASC', 'ASCENDING', 'DESC', 'DESCENDING');
      const descending = direction === 'DESC' || direction === 'DESCENDING';
      return this.finish<SortItem>(itemStart, { kind: Kind.SortItem, expression, descending });
    });
    return this.finish<OrderBy>(start, { kind: Kind.OrderBy, items });
  }

  /** `Call : [OPTIONAL] CALL (SubqueryCall | ProcedureCall)` */
  private parseCall(): CallSubquery | CallProcedure {
    const start = this.peek();
    const optional = this.optionalKeyword('OPTIONAL');
    this.expectKeyword('CALL');
    if (this.peekKind(TokenKind.LBrace) || this.peekKind(TokenKind.LParen)) {
      let scope: CallSubquery['scope'] = null;
      if (this.peekKind(TokenKind.LParen)) {
        if (this.peekKind(TokenKind.Star, 1)) {
          this.index += 2;
          this.expectToken(TokenKind.RParen);
          scope = '*';
        } else {
          scope = this.optionalMany(TokenKind.LParen, () => this.parseVariable(), TokenKind.RParen);
        }
      }
      this.expectToken(TokenKind.LBrace);
      const query = this.parseQuery();
      this.expectToken(TokenKind.RBrace);
      const inTransactions = this.peekKeyword('IN') ? this.parseInTransactions() : null;
      return this.finish<CallSubquery>(start, { kind: Kind.CallSubquery, optional, scope, query, inTransactions });
    }
    return this.parseProcedureCall(start, optional);
  }

  /**
   * `InTransactions : IN [[Expression] CONCURRENT] TRANSACTIONS [OF Expression (ROW | ROWS)]
   *  [ON ERROR (CONTINUE | BREAK | FAIL)] [REPORT STATUS AS Variable]`
   */
  private parseInTransactions(): InTransactions {
    const start = this.expectKeyword('IN');
    let concurrency: Expression | null = null;
    let concurrent = false;
    if (!this.peekKeyword('TRANSACTIONS')) {
      if (!this.peekKeyword('CONCURRENT')) concurrency = this.parseExpression();
      this.expectKeyword('CONCURRENT');
      concurrent = true;
    }
    this.expectKeyword('TRANSACTIONS');
    let batchSize: Expression | null = null;
    let onError: InTransactions['onError'] = null;
    let reportStatusAs: Variable | null = null;
    for (;;) {
      if (batchSize === null && this.optionalKeyword('OF')) {
        batchSize = this.parseExpression();
        if (!this.optionalKeyword('ROWS')) this.expectKeyword('ROW');
      } else if (onError === null && this.optionalKeywords('ON', 'ERROR')) {
        const word = this.advance().value.toUpperCase();
        if (word !== 'CONTINUE' && word !== 'BREAK' && word !== 'FAIL') this.unexpected("'CONTINUE', 'BREAK' or 'FAIL'", this.previous());
        onError = word;
      } else if (reportStatusAs === null && this.optionalKeywords('REPORT', 'STATUS', 'AS')) {
        reportStatusAs = this.parseVariable();
      } else {
        break;
      }
    }
    return this.finish<InTransactions>(start, { kind: Kind.InTransactions, concurrency, concurrent, batchSize, onError, reportStatusAs });
  }

  /**
   * `ProcedureCall : ProcedureName ['(' [Expression (',' Expression)*] ')']
   *  [YIELD ('*' | YieldItem (',' YieldItem)* [WHERE Expression])]`
   */
  private parseProcedureCall(start: Token, optional: boolean): CallProcedure {
    const parts = [this.parseName('a procedure name')];
    while (this.optionalToken(TokenKind.Dot)) parts.push(this.parseName('a procedure name'));
    const args = this.peekKind(TokenKind.LParen)
      ? this.optionalMany(TokenKind.LParen, () => this.parseExpression(), TokenKind.RParen)
      : null;
    let yieldStar = false;
    let yieldItems: YieldItem[] | null = null;
    let where: Expression | null = null;
    if (this.optionalKeyword('YIELD')) {
      if (this.optionalToken(TokenKind.Star)) yieldStar = true;
      else {
        yieldItems = this.delimitedMany(TokenKind.Comma, () => this.parseYieldItem());
        where = this.optionalKeyword('WHERE') ? this.parseExpression() : null;
      }
    }
    const name = parts.pop()!;
    return this.finish<CallProcedure>(start, {
      kind: Kind.CallProcedure,
      optional,
      namespace: parts,
      name,
      args,
      yieldStar,
      yieldItems,
      where,
    });
  }

  /** `YieldItem : Field [AS Variable]` */
  protected parseYieldItem(): YieldItem {
    const start = this.peek();
    const field = this.parseName('a field name');
    const alias = this.optionalKeyword('AS') ? this.parseVariable() : null;
    return this.finish<YieldItem>(start, { kind: Kind.YieldItem, field, alias });
  }

  /** `LoadCsv : LOAD CSV [WITH HEADERS] FROM Expression AS Variable [FIELDTERMINATOR String]` */
  private parseLoadCsv(): LoadCsv {
    const start = this.expectKeyword('LOAD');
    this.expectKeyword('CSV');
    const withHeaders = this.optionalKeywords('WITH', 'HEADERS');
    this.expectKeyword('FROM');
    const source = this.parseExpression();
    this.expectKeyword('AS');
    const variable = this.parseVariable();
    const fieldTerminator = this.optionalKeyword('FIELDTERMINATOR') ? this.expectToken(TokenKind.String).value : null;
    return this.finish<LoadCsv>(start, { kind: Kind.LoadCsv, withHeaders, source, variable, fieldTerminator });
  }
}
