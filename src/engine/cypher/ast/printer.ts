import { printSecurityCommand } from './print-security.js';
import type { AdminCommand, SymbolicName } from './admin.js';
import type { Clause, ProjectionBody, OrderBy, SetItem, RemoveItem, YieldItem, SetLabels, RemoveLabels } from './clauses.js';
import type { Expression } from './expressions.js';
import { Kind } from './kinds.js';
import { ExpressionPrinter, printKey, printName, printString } from './print-expressions.js';
import type { SchemaCommand, Show } from './schema.js';
import type { Query, Statement } from './statements.js';

export { printFunctionName, printKey, printName, printString } from './print-expressions.js';

/**
 * Prints an AST back to Cypher (graphql-js `print`). The output is canonical, not the original
 * text: keywords upper case, single spaces, minimal parentheses; `parse(print(ast))` equals `ast`
 * apart from `loc` and `ProjectionItem.text`.
 */
export function print(node: Statement | Query | Clause | Expression): string {
  const printer = new Printer();
  switch (node.kind) {
    case Kind.Statement:
      return printer.statement(node);
    case Kind.SingleQuery:
    case Kind.Union:
      return printer.query(node);
    default:
      return isClause(node) ? printer.clause(node as Clause) : printer.expressions.expression(node as Expression);
  }
}

const clauseKinds = new Set<string>([
  Kind.Use,
  Kind.Match,
  Kind.Unwind,
  Kind.With,
  Kind.Return,
  Kind.CallSubquery,
  Kind.CallProcedure,
  Kind.LoadCsv,
  Kind.Finish,
  Kind.Create,
  Kind.Merge,
  Kind.Set,
  Kind.Remove,
  Kind.Delete,
  Kind.Foreach,
]);

function isClause(node: { kind: string }): boolean {
  return clauseKinds.has(node.kind);
}

class Printer {
  readonly expressions = new ExpressionPrinter((query) => this.query(query));

  private e(expression: Expression): string {
    return this.expressions.expression(expression);
  }

  statement(statement: Statement): string {
    const parts: string[] = [];
    if (statement.cypherVersion !== null || statement.options.length > 0) {
      parts.push(
        [
          'CYPHER',
          ...(statement.cypherVersion !== null ? [statement.cypherVersion] : []),
          ...statement.options.map((o) => `${printName(o.key)}=${o.value}`),
        ].join(' '),
      );
    }
    if (statement.explain) parts.push(statement.explain);
    const body = statement.body;
    if (body.kind === Kind.SingleQuery || body.kind === Kind.Union) parts.push(this.query(body));
    else parts.push(this.command(body));
    return parts.join(' ');
  }

  query(query: Query): string {
    if (query.kind === Kind.Union) return `${this.query(query.left)} UNION ${query.all ? 'ALL ' : ''}${this.query(query.right)}`;
    return query.clauses.map((clause) => this.clause(clause)).join(' ');
  }

  clause(clause: Clause): string {
    const x = this.expressions;
    const where = (expression: Expression | null): string => (expression ? ` WHERE ${this.e(expression)}` : '');
    switch (clause.kind) {
      case Kind.Use:
        return `USE ${this.e(clause.graph)}${clause.at ? ` AT ${clause.at.kind} ${this.e(clause.at.value)}` : ''}`;
      case Kind.Match: {
        const hints = clause.hints.map((hint) => {
          if (hint.hint === 'JOIN') return ` USING JOIN ON ${hint.variables.map((v) => printName(v.name)).join(', ')}`;
          const target = `${printName(hint.variables[0]!.name)}:${printName(hint.labelOrType!)}`;
          if (hint.hint === 'SCAN') return ` USING SCAN ${target}`;
          return ` USING ${hint.indexType ? hint.indexType + ' ' : ''}${hint.hint} ${target}(${hint.properties.map(printKey).join(', ')})`;
        });
        return `${clause.optional ? 'OPTIONAL ' : ''}MATCH ${x.pattern(clause.pattern)}${hints.join('')}${where(clause.where)}`;
      }
      case Kind.Unwind:
        return `UNWIND ${this.e(clause.expression)} AS ${printName(clause.variable.name)}`;
      case Kind.With:
        if (clause.form === 'LET')
          return `LET ${clause.projection.items.map((i) => `${this.e(i.alias!)} = ${this.e(i.expression)}`).join(', ')}`;
        if (clause.form === 'FILTER') return `FILTER ${this.e(clause.where!)}`;
        if (clause.form === 'NEXT') return `RETURN ${this.projection(clause.projection)} NEXT`;
        return `WITH ${this.projection(clause.projection)}${where(clause.where)}`;
      case Kind.Return:
        return `RETURN ${this.projection(clause.projection)}`;
      case Kind.CallSubquery: {
        const scope =
          clause.scope === null ? '' : clause.scope === '*' ? ' (*)' : ` (${clause.scope.map((v) => printName(v.name)).join(', ')})`;
        let out = `${clause.optional ? 'OPTIONAL ' : ''}CALL${scope} { ${this.query(clause.query)} }`;
        const tx = clause.inTransactions;
        if (tx) {
          out += ' IN';
          if (tx.concurrent) out += `${tx.concurrency ? ' ' + this.e(tx.concurrency) : ''} CONCURRENT`;
          out += ' TRANSACTIONS';
          if (tx.batchSize) out += ` OF ${this.e(tx.batchSize)} ROWS`;
          if (tx.onError) out += ` ON ERROR ${tx.onError}`;
          if (tx.reportStatusAs) out += ` REPORT STATUS AS ${printName(tx.reportStatusAs.name)}`;
        }
        return out;
      }
      case Kind.CallProcedure: {
        let out = `${clause.optional ? 'OPTIONAL ' : ''}CALL ${[...clause.namespace, clause.name].map(printKey).join('.')}`;
        if (clause.args) out += `(${clause.args.map((a) => this.e(a)).join(', ')})`;
        if (clause.yieldStar) out += ' YIELD *';
        else if (clause.yieldItems) out += ` YIELD ${this.yieldItems(clause.yieldItems)}${where(clause.where)}`;
        return out;
      }
      case Kind.LoadCsv:
        return `LOAD CSV${clause.withHeaders ? ' WITH HEADERS' : ''} FROM ${this.e(clause.source)} AS ${printName(clause.variable.name)}${clause.fieldTerminator !== null ? ` FIELDTERMINATOR ${printString(clause.fieldTerminator)}` : ''}`;
      case Kind.Finish:
        return 'FINISH';
      case Kind.Create:
        return `${clause.form === 'INSERT' ? 'INSERT' : 'CREATE'} ${x.pattern(clause.pattern)}`;
      case Kind.Merge:
        return `MERGE ${x.patternPart(clause.pattern)}${clause.actions.map((a) => ` ON ${a.on} SET ${a.items.map((i) => this.setItem(i)).join(', ')}`).join('')}`;
      case Kind.Set:
        return `SET ${clause.items.map((i) => this.setItem(i)).join(', ')}`;
      case Kind.Remove:
        return `REMOVE ${clause.items.map((i) => this.removeItem(i)).join(', ')}`;
      case Kind.Delete:
        return `${clause.detach ? 'DETACH ' : ''}DELETE ${clause.expressions.map((e) => this.e(e)).join(', ')}`;
      case Kind.Foreach:
        return `FOREACH (${printName(clause.variable.name)} IN ${this.e(clause.list)} | ${clause.clauses.map((c) => this.clause(c)).join(' ')})`;
    }
  }

  private projection(body: ProjectionBody): string {
    const items = body.items.map((item) => `${this.e(item.expression)}${item.alias ? ` AS ${printName(item.alias.name)}` : ''}`);
    if (body.star) items.unshift('*');
    let out = `${body.distinct ? 'DISTINCT ' : ''}${items.join(', ')}`;
    out += this.orderSkipLimit(body.orderBy, body.skip, body.limit);
    return out;
  }

  private orderSkipLimit(orderBy: OrderBy | null, skip: Expression | null, limit: Expression | null): string {
    let out = '';
    if (orderBy) out += ` ORDER BY ${orderBy.items.map((i) => `${this.e(i.expression)}${i.descending ? ' DESC' : ''}`).join(', ')}`;
    if (skip) out += ` SKIP ${this.e(skip)}`;
    if (limit) out += ` LIMIT ${this.e(limit)}`;
    return out;
  }

  private yieldItems(items: readonly YieldItem[]): string {
    return items.map((i) => `${printName(i.field)}${i.alias ? ` AS ${printName(i.alias.name)}` : ''}`).join(', ');
  }

  private setItem(item: SetItem): string {
    switch (item.kind) {
      case Kind.SetProperty:
        return `${this.expressions.expression(item.target, 11)} = ${this.e(item.value)}`;
      case Kind.SetVariable:
        return `${printName(item.variable.name)} ${item.merge ? '+=' : '='} ${this.e(item.value)}`;
      case Kind.SetLabels:
        return this.labelItem(item);
    }
  }

  private removeItem(item: RemoveItem): string {
    if (item.kind === Kind.RemoveProperty) return this.expressions.expression(item.target, 11);
    return this.labelItem(item);
  }

  private labelItem(item: SetLabels | RemoveLabels): string {
    const names = item.labels.map((l) => ':' + printName(l));
    const dynamic = item.dynamicLabels.map((l) => ':' + this.expressions.dynamicLabel(l));
    return `${printName(item.variable.name)}${names.join('')}${dynamic.join('')}`;
  }

  private name(name: string | { readonly kind: Kind.Parameter; readonly name: string }): string {
    return typeof name === 'string' ? printName(name) : this.expressions.parameter(name);
  }

  private symbolic(name: SymbolicName): string {
    if (name.parameter) return this.expressions.parameter(name.parameter);
    return name.name!.split('.').map(printName).join('.');
  }

  command(command: SchemaCommand | AdminCommand): string {
    const x = this.expressions;
    const options = (o: Parameters<ExpressionPrinter['map']>[0] | { kind: Kind.Parameter; name: string } | null): string =>
      o === null ? '' : ` OPTIONS ${o.kind === Kind.MapLiteral ? x.map(o) : x.parameter(o)}`;
    switch (command.kind) {
      case Kind.CreateIndex: {
        let out = `CREATE ${command.orReplace ? 'OR REPLACE ' : ''}${command.indexType ? command.indexType + ' ' : ''}INDEX`;
        if (command.variable === null) return `${out} ON :${printKey(command.labels[0]!)}(${command.properties.map(printKey).join(', ')})`;
        if (command.name !== null) out += ` ${this.name(command.name)}`;
        if (command.ifNotExists) out += ' IF NOT EXISTS';
        const v = printName(command.variable.name);
        const labels = command.labels.length > 0 ? ':' + command.labels.map(printKey).join('|') : '';
        out += command.entity === 'NODE' ? ` FOR (${v}${labels})` : ` FOR ()-[${v}${labels}]-()`;
        if (command.lookupFunction !== null) out += ` ON EACH ${command.lookupFunction}(${v})`;
        else if (command.indexType === 'FULLTEXT') out += ` ON EACH [${command.properties.map((p) => `${v}.${printName(p)}`).join(', ')}]`;
        else out += ` ON (${command.properties.map((p) => `${v}.${printName(p)}`).join(', ')})`;
        return out + options(command.options);
      }
      case Kind.DropIndex:
        if (command.name === null) return `DROP INDEX ON :${printKey(command.label!)}(${command.properties.map(printKey).join(', ')})`;
        return `DROP INDEX ${this.name(command.name)}${command.ifExists ? ' IF EXISTS' : ''}`;
      case Kind.CreateConstraint: {
        let out = `CREATE ${command.orReplace ? 'OR REPLACE ' : ''}CONSTRAINT`;
        if (command.name !== null) out += ` ${this.name(command.name)}`;
        if (command.ifNotExists) out += ' IF NOT EXISTS';
        const v = printName(command.variable.name);
        const label = printName(command.labelOrType);
        out += command.entity === 'NODE' ? ` FOR (${v}:${label})` : ` FOR ()-[${v}:${label}]-()`;
        out += ` REQUIRE (${command.properties.map((p) => `${v}.${printName(p)}`).join(', ')})`;
        const kinds = {
          UNIQUE: 'IS UNIQUE',
          NODE_KEY: 'IS NODE KEY',
          RELATIONSHIP_KEY: 'IS RELATIONSHIP KEY',
          NOT_NULL: 'IS NOT NULL',
          PROPERTY_TYPE: '',
        } as const;
        out += command.constraintType === 'PROPERTY_TYPE' ? ` IS :: ${x.type(command.propertyType!)}` : ` ${kinds[command.constraintType]}`;
        return out + options(command.options);
      }
      case Kind.DropConstraint:
        return `DROP CONSTRAINT ${this.name(command.name)}${command.ifExists ? ' IF EXISTS' : ''}`;
      case Kind.Show:
        return this.show(command);
      case Kind.CreateDatabase:
        return `CREATE ${command.orReplace ? 'OR REPLACE ' : ''}${command.composite === true ? 'COMPOSITE ' : ''}DATABASE ${this.symbolic(command.name)}${command.ifNotExists ? ' IF NOT EXISTS' : ''}${options(command.options)}${command.wait ? ' WAIT' : ''}`;
      case Kind.DropDatabase:
        return `DROP ${command.composite === true ? 'COMPOSITE ' : ''}DATABASE ${this.symbolic(command.name)}${command.ifExists ? ' IF EXISTS' : ''}${command.cascadeAliases ? ' CASCADE ALIASES' : ''}${command.dumpData ? ' DUMP DATA' : ''}${command.wait ? ' WAIT' : ''}`;
      case Kind.AlterDatabase: {
        const settings = command.settings.map((s) => {
          if (s.category === 'REMOVE OPTION') return ` REMOVE OPTION ${printName(s.key)}`;
          if (s.category === 'ACCESS') return ` SET ACCESS ${s.value && s.value.kind === Kind.StringLiteral ? s.value.value : ''}`;
          if (s.category === 'LIMIT') return ` SET LIMIT ${printName(s.key)} = ${this.e(s.value!)}`;
          return ` SET ${s.category} ${printName(s.key)} ${this.e(s.value!)}`;
        });
        return `ALTER DATABASE ${this.symbolic(command.name)}${command.ifExists ? ' IF EXISTS' : ''}${settings.join('')}`;
      }
      case Kind.StartDatabase:
        return `START DATABASE ${this.symbolic(command.name)}`;
      case Kind.StopDatabase:
        return `STOP DATABASE ${this.symbolic(command.name)}`;
      case Kind.CreateAlias: {
        const properties =
          command.properties === null
            ? ''
            : ` PROPERTIES ${command.properties.kind === Kind.MapLiteral ? x.map(command.properties) : x.parameter(command.properties)}`;
        return `CREATE ${command.orReplace ? 'OR REPLACE ' : ''}ALIAS ${this.symbolic(command.name)}${command.ifNotExists ? ' IF NOT EXISTS' : ''} FOR DATABASE ${this.symbolic(command.target)}${properties}`;
      }
      case Kind.DropAlias:
        return `DROP ALIAS ${this.symbolic(command.name)}${command.ifExists ? ' IF EXISTS' : ''} FOR DATABASE`;
      case Kind.AlterAlias: {
        const target = command.target === null ? '' : ` TARGET ${this.symbolic(command.target)}`;
        const properties =
          command.properties === null
            ? ''
            : ` PROPERTIES ${command.properties.kind === Kind.MapLiteral ? x.map(command.properties) : x.parameter(command.properties)}`;
        return `ALTER ALIAS ${this.symbolic(command.name)}${command.ifExists ? ' IF EXISTS' : ''} SET DATABASE${target}${properties}`;
      }
      default:
        return printSecurityCommand(command, { symbolic: (name) => this.symbolic(name), expression: (e) => this.e(e) });
    }
  }

  private show(show: Show): string {
    let out = show.target === 'TERMINATE TRANSACTIONS' ? show.target : `SHOW ${show.filter ? show.filter + ' ' : ''}${show.target}`;
    const names =
      show.name?.kind === Kind.ListLiteral
        ? show.name.items.map((item) => (item.kind === Kind.StringLiteral ? printName(item.value) : this.e(item))).join(', ')
        : '';
    if (show.target === 'ROLES WITH USERS') out = `SHOW ${show.filter ? show.filter + ' ' : ''}ROLES WITH USERS`;
    else if (show.target === 'USERS' && show.filter === 'WITH AUTH') out = 'SHOW USERS WITH AUTH';
    else if (show.target === 'PRIVILEGES' || show.target === 'ROLE PRIVILEGES' || show.target === 'USER PRIVILEGES') {
      const who = show.target === 'PRIVILEGES' ? '' : `${show.target.split(' ')[0]} ${names}${names === '' ? '' : ' '}`;
      out = `SHOW ${who}PRIVILEGES${show.filter ? ' ' + show.filter : ''}`;
    } else if (show.name) out += show.target === 'LIMITS' ? ` FOR DATABASE ${this.e(show.name)}` : ` ${this.e(show.name)}`;
    if (show.target === 'ALIASES') out += ' FOR DATABASES';
    if (show.yieldStar) out += ' YIELD *';
    else if (show.yieldItems) out += ` YIELD ${this.yieldItems(show.yieldItems)}`;
    out += this.orderSkipLimit(show.orderBy, show.skip, show.limit);
    if (show.where) out += ` WHERE ${this.e(show.where)}`;
    if (show.returnClause) out += ` ${this.clause(show.returnClause)}`;
    return out;
  }
}
