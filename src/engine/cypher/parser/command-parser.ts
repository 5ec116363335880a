import type {
  AdminCommand,
  AlterAlias,
  AlterDatabase,
  CreateAlias,
  CreateDatabase,
  DatabaseSetting,
  DropAlias,
  DropDatabase,
  StartDatabase,
  StopDatabase,
} from '../ast/admin.js';
import type { Expression, StringLiteral } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { SchemaCommand, Show, ShowTarget } from '../ast/schema.js';
import type { Token } from '../lexer/token.js';
import { TokenKind } from '../lexer/token-kind.js';
import type { SecurityCommand } from '../ast/security.js';
import { SecurityCommandParser } from './security-parser.js';

/** SHOW targets: singular and plural keywords, the canonical target, and whether a name may follow. */
const showTargets: ReadonlyArray<readonly [readonly string[], ShowTarget, boolean]> = [
  [['INDEX', 'INDEXES'], 'INDEXES', false],
  [['CONSTRAINT', 'CONSTRAINTS'], 'CONSTRAINTS', false],
  [['DATABASES'], 'DATABASES', false],
  [['DATABASE'], 'DATABASE', true],
  [['ALIAS', 'ALIASES'], 'ALIASES', true],
  [['LIMIT', 'LIMITS'], 'LIMITS', false],
  [['PROCEDURE', 'PROCEDURES'], 'PROCEDURES', false],
  [['FUNCTION', 'FUNCTIONS'], 'FUNCTIONS', false],
  [['TRANSACTION', 'TRANSACTIONS'], 'TRANSACTIONS', true],
  [['SETTING', 'SETTINGS'], 'SETTINGS', true],
  [['USER', 'USERS'], 'USERS', false],
  [['ROLE', 'ROLES'], 'ROLES', false],
];

/** Filter words that may precede a SHOW target (`SHOW FULLTEXT INDEXES`, `SHOW UNIQUE CONSTRAINTS`). */
const showFilters = [
  'ALL',
  'RANGE',
  'TEXT',
  'POINT',
  'LOOKUP',
  'FULLTEXT',
  'VECTOR',
  'BTREE',
  'UNIQUE',
  'EXIST',
  'EXISTENCE',
  'KEY',
  'BUILT',
  'IN',
  'USER',
  'DEFINED',
  'NODE',
  'RELATIONSHIP',
  'REL',
  'PROPERTY',
  'TYPE',
  'EXISTS',
  'DEFAULT',
  'HOME',
  'CURRENT',
];

/** SHOW, database and alias administration commands. */
export abstract class CommandParser extends SecurityCommandParser {
  /** True when the statement is a command rather than a query. */
  protected peekCommand(): boolean {
    if (this.peekSecurityCommand()) return true;
    if (this.peekKeyword('SHOW') || this.peekKeyword('ALTER') || this.peekKeyword('DROP') || this.peekKeyword('TERMINATE')) return true;
    if ((this.peekKeyword('START') || this.peekKeyword('STOP')) && this.peekKeyword('DATABASE', 1)) return true;
    if (!this.peekKeyword('CREATE')) return false;
    const offset = this.peekKeywords('CREATE', 'OR', 'REPLACE') ? 3 : 1;
    return (
      this.peekSchemaCreate(offset) ||
      this.peekKeyword('DATABASE', offset) ||
      this.peekKeyword('ALIAS', offset) ||
      (this.peekKeyword('COMPOSITE', offset) && this.peekKeyword('DATABASE', offset + 1))
    );
  }

  /** `Command : CreateCommand | DropCommand | AlterDatabase | StartDatabase | StopDatabase | Show` */
  protected parseCommand(): SchemaCommand | AdminCommand {
    const start = this.peek();
    const security = this.parseSecurityStart(start);
    if (security !== null) return security;
    if (this.optionalKeyword('SHOW')) return this.parseShow(start);
    if (this.optionalKeyword('TERMINATE')) return this.parseTerminateTransactions(start);
    if (this.optionalKeyword('ALTER')) return this.optionalKeyword('ALIAS') ? this.parseAlterAlias(start) : this.parseAlterDatabase(start);
    if (this.optionalKeyword('START')) {
      this.expectKeyword('DATABASE');
      const name = this.parseSymbolicName();
      this.parseWait();
      return this.finish<StartDatabase>(start, { kind: Kind.StartDatabase, name });
    }
    if (this.optionalKeyword('STOP')) {
      this.expectKeyword('DATABASE');
      const name = this.parseSymbolicName();
      this.parseWait();
      return this.finish<StopDatabase>(start, { kind: Kind.StopDatabase, name });
    }
    if (this.optionalKeyword('DROP')) return this.parseDrop(start);
    this.expectKeyword('CREATE');
    const orReplace = this.optionalKeywords('OR', 'REPLACE');
    if (this.peekSchemaCreate(0)) return this.parseCreateSchema(start, orReplace);
    if (this.optionalKeyword('ALIAS')) return this.parseCreateAlias(start, orReplace);
    const composite = this.optionalKeyword('COMPOSITE');
    this.expectKeyword('DATABASE');
    const name = this.parseSymbolicName();
    const ifNotExists = this.optionalKeywords('IF', 'NOT', 'EXISTS');
    const options = this.parseOptions();
    const wait = this.parseWait();
    return this.finish<CreateDatabase>(start, { kind: Kind.CreateDatabase, composite, name, orReplace, ifNotExists, options, wait });
  }

  /** A user, role or privilege command (GRANT, DENY, REVOKE, RENAME, CREATE/DROP/ALTER USER|ROLE), or null. */
  private parseSecurityStart(start: Token): SecurityCommand | null {
    const first = this.peek().value.toUpperCase();
    const isSecurity =
      ['GRANT', 'DENY', 'REVOKE', 'RENAME'].includes(first) && this.peekName()
        ? true
        : (first === 'DROP' || first === 'ALTER') && this.peekName()
          ? this.peekKeyword('USER', 1) ||
            this.peekKeyword('ROLE', 1) ||
            (first === 'ALTER' && this.peekKeywords('ALTER', 'CURRENT', 'USER'))
          : this.peekSecurityCommand();
    if (!isSecurity) return null;
    this.advance();
    const orReplace = first === 'CREATE' && this.optionalKeywords('OR', 'REPLACE');
    return this.parseSecurityCommand(start, first, orReplace);
  }

  /** `DROP (INDEX ... | CONSTRAINT ... | [COMPOSITE] DATABASE name [IF EXISTS] [DUMP|DESTROY DATA] [WAIT] | ALIAS name [IF EXISTS] FOR DATABASE)` */
  private parseDrop(start: Token): SchemaCommand | AdminCommand {
    if (this.peekKeyword('INDEX')) return this.parseDropIndex(start);
    if (this.peekKeyword('CONSTRAINT')) return this.parseDropConstraint(start);
    if (this.optionalKeyword('ALIAS')) {
      const name = this.parseSymbolicName();
      const ifExists = this.optionalKeywords('IF', 'EXISTS');
      this.expectKeywords('FOR', 'DATABASE');
      return this.finish<DropAlias>(start, { kind: Kind.DropAlias, name, ifExists });
    }
    const composite = this.optionalKeyword('COMPOSITE');
    this.expectKeyword('DATABASE');
    const name = this.parseSymbolicName();
    const ifExists = this.optionalKeywords('IF', 'EXISTS');
    let cascadeAliases = false;
    if (this.optionalKeyword('CASCADE')) {
      if (this.optionalAnyKeyword('ALIAS', 'ALIASES') === null) this.unexpected("'ALIASES'");
      cascadeAliases = true;
    } else if (this.optionalKeyword('RESTRICT')) {
      cascadeAliases = false;
    }
    let dumpData = false;
    if (this.optionalKeywords('DUMP', 'DATA')) dumpData = true;
    else this.optionalKeywords('DESTROY', 'DATA');
    const wait = this.parseWait();
    return this.finish<DropDatabase>(start, { kind: Kind.DropDatabase, composite, name, ifExists, cascadeAliases, dumpData, wait });
  }

  /** `[WAIT [n [SEC | SECOND | SECONDS]] | NOWAIT]`: true when waiting. */
  private parseWait(): boolean {
    if (this.optionalKeyword('NOWAIT')) return false;
    if (!this.optionalKeyword('WAIT')) return false;
    if (this.optionalToken(TokenKind.Integer)) {
      this.optionalAnyKeyword('SEC', 'SECOND', 'SECONDS');
    }
    return true;
  }

  /** `CreateAlias : ALIAS name [IF NOT EXISTS] FOR DATABASE target [PROPERTIES Map]` */
  private parseCreateAlias(start: Token, orReplace: boolean): CreateAlias {
    const name = this.parseSymbolicName();
    const ifNotExists = this.optionalKeywords('IF', 'NOT', 'EXISTS');
    this.expectKeywords('FOR', 'DATABASE');
    const target = this.parseSymbolicName();
    const properties = this.parseAliasProperties();
    return this.finish<CreateAlias>(start, { kind: Kind.CreateAlias, name, target, orReplace, ifNotExists, properties });
  }

  /** `[PROPERTIES (Map | Parameter)]` of CREATE/ALTER ALIAS. */
  private parseAliasProperties(): AlterAlias['properties'] {
    if (!this.optionalKeyword('PROPERTIES')) return null;
    return this.peekKind(TokenKind.Parameter) ? this.parseParameter() : this.parseMapLiteral();
  }

  /** `AlterAlias : ALTER ALIAS name [IF EXISTS] SET DATABASE [TARGET target] [PROPERTIES Map]` (one at least) */
  private parseAlterAlias(start: Token): AlterAlias {
    const name = this.parseSymbolicName();
    const ifExists = this.optionalKeywords('IF', 'EXISTS');
    this.expectKeywords('SET', 'DATABASE');
    const target = this.optionalKeyword('TARGET') ? this.parseSymbolicName() : null;
    const properties = this.parseAliasProperties();
    if (target === null && properties === null) this.unexpected("'TARGET' or 'PROPERTIES'");
    return this.finish<AlterAlias>(start, { kind: Kind.AlterAlias, name, ifExists, target, properties });
  }

  /**
   * `AlterDatabase : ALTER DATABASE name [IF EXISTS] (SET LIMIT key [=] value (',' key [=] value)* | SET OPTION key value |
   *  SET ACCESS READ (ONLY | WRITE) | REMOVE OPTION key)+`
   */
  private parseAlterDatabase(start: Token): AlterDatabase {
    this.expectKeyword('DATABASE');
    const name = this.parseSymbolicName();
    const ifExists = this.optionalKeywords('IF', 'EXISTS');
    const settings: DatabaseSetting[] = [];
    while (this.peekKeyword('SET') || this.peekKeyword('REMOVE')) settings.push(...[this.parseDatabaseSetting()].flat());
    if (settings.length === 0) this.unexpected("'SET' or 'REMOVE'");
    this.parseWait();
    return this.finish<AlterDatabase>(start, { kind: Kind.AlterDatabase, name, ifExists, settings });
  }

  private parseDatabaseSetting(): DatabaseSetting | DatabaseSetting[] {
    const start = this.peek();
    if (this.optionalKeyword('REMOVE')) {
      this.expectKeyword('OPTION');
      const key = this.parseName('an option name');
      return this.finish<DatabaseSetting>(start, { kind: Kind.DatabaseSetting, category: 'REMOVE OPTION', key, value: null });
    }
    this.expectKeyword('SET');
    if (this.optionalKeyword('ACCESS')) {
      const valueStart = this.expectKeyword('READ');
      const mode = this.optionalKeyword('ONLY') ? 'READ ONLY' : (this.expectKeyword('WRITE'), 'READ WRITE');
      const value = this.finish<StringLiteral>(valueStart, { kind: Kind.StringLiteral, value: mode });
      return this.finish<DatabaseSetting>(start, { kind: Kind.DatabaseSetting, category: 'ACCESS', key: 'access', value });
    }
    if (this.optionalKeyword('LIMIT')) return this.parseLimitSettings(start);
    this.expectKeyword('OPTION');
    const key = this.parseName('an option name');
    const value = this.parseExpression();
    return this.finish<DatabaseSetting>(start, { kind: Kind.DatabaseSetting, category: 'OPTION', key, value });
  }

  /**
   * `SET LIMIT name [=] value (',' name [=] value)*` (NornicDB): one LIMIT setting per
   * assignment; the first carries the SET's location.
   */
  private parseLimitSettings(start: Token): DatabaseSetting[] {
    const settings: DatabaseSetting[] = [];
    do {
      const itemStart = settings.length === 0 ? start : this.peek();
      const key = this.parseName('a limit name');
      this.optionalToken(TokenKind.Eq);
      const value = this.parseExpression();
      settings.push(this.finish<DatabaseSetting>(itemStart, { kind: Kind.DatabaseSetting, category: 'LIMIT', key, value }));
    } while (this.optionalToken(TokenKind.Comma));
    return settings;
  }

  /** `Show : SHOW [filter] target [name] [YIELD ... ] [WHERE Expression] [Return]` */
  private parseShow(start: Token): Show {
    const security = this.parseSecurityShow(start);
    if (security !== null) return security;
    const filterWords: string[] = [];
    let target: ShowTarget | null = null;
    let takesName = false;
    if (this.optionalKeywords('CURRENT', 'USER')) target = 'CURRENT USER';
    else if (this.optionalKeywords('DEFAULT', 'DATABASE')) target = 'DEFAULT DATABASE';
    else if (this.optionalKeywords('HOME', 'DATABASE')) target = 'HOME DATABASE';
    while (target === null) {
      const entry = showTargets.find(([words]) => words.some((word) => this.peekKeyword(word)));
      const isFilter = showFilters.some((word) => this.peekKeyword(word));
      const nextIsWord =
        showFilters.some((word) => this.peekKeyword(word, 1)) ||
        showTargets.some(([words]) => words.some((word) => this.peekKeyword(word, 1)));
      if (entry && !(isFilter && nextIsWord)) {
        this.advance();
        target = entry[1];
        takesName = entry[2];
      } else if (isFilter) {
        filterWords.push(this.advance().value.toUpperCase());
      } else {
        this.unexpected("'INDEXES', 'CONSTRAINTS', 'DATABASES', 'ALIASES', 'LIMITS', 'PROCEDURES', 'FUNCTIONS' or 'TRANSACTIONS'");
      }
    }
    let name: Expression | null = null;
    const takesList = target === 'TRANSACTIONS' || target === 'SETTINGS';
    if (
      takesName &&
      !this.peekKeyword('YIELD') &&
      !this.peekKeyword('WHERE') &&
      !this.peekKeyword('FOR') &&
      (this.peekName() ||
        this.peekKind(TokenKind.Parameter) ||
        this.peekKind(TokenKind.String) ||
        (takesList && this.peekKind(TokenKind.LBracket)))
    ) {
      name = takesList ? this.parseNameList() : this.parseExpression();
    }
    if (target === 'ALIASES' && this.optionalKeyword('FOR')) {
      if (!this.optionalKeyword('DATABASES')) this.expectKeyword('DATABASE');
    }
    if (target === 'LIMITS' && this.optionalKeyword('FOR')) {
      this.expectKeyword('DATABASE');
      name = this.parseExpression();
    }
    return this.parseShowTail(start, target, filterWords.length > 0 ? filterWords.join(' ') : null, name);
  }

  /** `[YIELD ('*' | YieldItem, ...) [ORDER BY ...] [SKIP n] [LIMIT n] [WHERE e]] [WHERE e] [RETURN ...]` */
  protected parseShowTail(start: Token, target: ShowTarget, filter: string | null, name: Expression | null): Show {
    let yieldStar = false;
    let yieldItems = null;
    let orderBy = null;
    let skip = null;
    let limit = null;
    if (this.optionalKeyword('YIELD')) {
      if (this.optionalToken(TokenKind.Star)) yieldStar = true;
      else yieldItems = this.delimitedMany(TokenKind.Comma, () => this.parseYieldItem());
      orderBy = this.parseOrderBy();
      skip = this.optionalAnyKeyword('SKIP', 'OFFSET') ? this.parseExpression() : null;
      limit = this.optionalKeyword('LIMIT') ? this.parseExpression() : null;
    }
    const where = this.optionalKeyword('WHERE') ? this.parseExpression() : null;
    const returnClause = this.peekKeyword('RETURN') ? this.parseReturn() : null;
    return this.finish<Show>(start, {
      kind: Kind.Show,
      target,
      filter,
      name,
      yieldStar,
      yieldItems,
      orderBy,
      skip,
      limit,
      where,
      returnClause,
    });
  }
}
