/**
 * Alias and limit administration (CREATE/ALTER/DROP ALIAS, ALTER DATABASE ... SET LIMIT, DROP
 * DATABASE ... CASCADE ALIASES): run outside graph transactions, like CREATE DATABASE, through
 * the engine's database directory (`AdminHooks.directory`). Values in these commands are
 * constants: literals, parameters, lists and maps of them, and negated numbers.
 */
import { ArgumentError, ParameterMissing, StatusCodes, graphError } from '../../../errors/index.js';
import type { CypherValue } from '../../../values/types.js';
import type { DatabaseDirectory } from '../../../catalog/database-directory.js';
import { optionValue } from '../../../catalog/option-catalog.js';
import { Kind } from '../../ast/index.js';
import type { AdminCommand, Expression, SchemaCommand, SymbolicName } from '../../ast/index.js';
import type { ExecutionContext } from '../execution-context.js';
import { isMap } from '../../../values/kinds.js';

function directoryOf(ctx: ExecutionContext): DatabaseDirectory {
  const directory = ctx.admin.directory;
  if (directory === undefined)
    throw graphError(StatusCodes.UnsupportedOperation, 'Database aliases and limits are not available in this engine.');
  return directory;
}

/** Evaluates a constant expression of an administration command. */
export function constantValue(expression: Expression, ctx: ExecutionContext): CypherValue {
  switch (expression.kind) {
    case Kind.IntegerLiteral:
    case Kind.FloatLiteral:
    case Kind.StringLiteral:
    case Kind.BooleanLiteral:
      return expression.value;
    case Kind.NullLiteral:
      return null;
    case Kind.ListLiteral:
      return expression.items.map((item) => constantValue(item, ctx));
    case Kind.MapLiteral:
      return new Map(expression.entries.map((entry) => [entry.key, constantValue(entry.value, ctx)]));
    case Kind.Parameter: {
      if (!ctx.parameters.has(expression.name)) throw new ParameterMissing(expression.name);
      return ctx.parameters.get(expression.name) ?? null;
    }
    case Kind.UnaryOperation: {
      const operand = constantValue(expression.operand, ctx);
      if (expression.operator === '-' && typeof operand === 'bigint') return -operand;
      if (expression.operator === '-' && typeof operand === 'number') return -operand;
      if (expression.operator === '+' && (typeof operand === 'bigint' || typeof operand === 'number')) return operand;
      break;
    }
    default:
      break;
  }
  throw new ArgumentError('Administration commands accept only literal values and parameters here.');
}

function nameOf(name: SymbolicName, ctx: ExecutionContext): string {
  if (name.name !== null) return name.name;
  const value = name.parameter ? ctx.parameters.get(name.parameter.name) : undefined;
  if (typeof value !== 'string') throw new ArgumentError('Expected a database or alias name (a string parameter).');
  return value;
}

function propertiesOf(expression: Expression | null, ctx: ExecutionContext): ReadonlyMap<string, CypherValue> | null {
  if (expression === null) return null;
  const value = constantValue(expression, ctx);
  if (value === null) return new Map();
  if (!isMap(value)) throw new ArgumentError('Alias PROPERTIES must be a map.');
  return value;
}

/** Runs an alias or limit command; false when `command` is none of them. */
export async function runCatalogCommand(command: AdminCommand | SchemaCommand, ctx: ExecutionContext): Promise<boolean> {
  switch (command.kind) {
    case Kind.CreateAlias:
      await directoryOf(ctx).createAlias({
        name: nameOf(command.name, ctx),
        target: nameOf(command.target, ctx),
        properties: propertiesOf(command.properties, ctx) ?? new Map(),
        orReplace: command.orReplace,
        ifNotExists: command.ifNotExists,
      });
      return true;
    case Kind.AlterAlias:
      await directoryOf(ctx).alterAlias({
        name: nameOf(command.name, ctx),
        ifExists: command.ifExists,
        target: command.target === null ? null : nameOf(command.target, ctx),
        properties: propertiesOf(command.properties, ctx),
      });
      return true;
    case Kind.DropAlias:
      await directoryOf(ctx).dropAlias(nameOf(command.name, ctx), command.ifExists);
      return true;
    case Kind.AlterDatabase: {
      const other = command.settings.find((s) => s.category === 'ACCESS');
      if (other !== undefined) {
        throw graphError(
          StatusCodes.UnsupportedOperation,
          `ALTER DATABASE ... SET ACCESS is not supported; SET LIMIT, SET OPTION and REMOVE OPTION are.`,
        );
      }
      const name = nameOf(command.name, ctx);
      const directory = directoryOf(ctx);
      if (command.ifExists && !ctx.admin.listDatabases().some((d) => d.name === directory.resolve(name))) return true;
      const limits = command.settings.filter((s) => s.category === 'LIMIT');
      const options = command.settings.filter((s) => s.category !== 'LIMIT');
      if (limits.length > 0)
        await directory.setLimits(
          name,
          limits.map((s) => [s.key, constantValue(s.value!, ctx)] as const),
        );
      if (options.length > 0)
        await directory.setOptions(
          name,
          options.map((s) => [s.key, s.value === null ? null : constantValue(s.value, ctx)] as const),
        );
      return true;
    }
    case Kind.CreateDatabase: {
      if (command.composite === true) {
        if (command.orReplace) {
          throw graphError(
            StatusCodes.UnsupportedOperation,
            'CREATE OR REPLACE COMPOSITE DATABASE is not supported; drop the composite database first.',
          );
        }
        if (command.options !== null) {
          const options = constantValue(command.options, ctx);
          if (!isMap(options) || options.size > 0) {
            throw new ArgumentError('CREATE COMPOSITE DATABASE accepts no options (OPTIONS {} only).');
          }
        }
        await directoryOf(ctx).composites.create(nameOf(command.name, ctx), command.ifNotExists);
        return true;
      }
      if (command.options === null) return false;
      const options = constantValue(command.options, ctx);
      if (!isMap(options)) throw new ArgumentError('CREATE DATABASE OPTIONS must be a map.');
      const name = nameOf(command.name, ctx);
      const directory = directoryOf(ctx);
      for (const [key, value] of options) optionValue(key, value);
      const existed = ctx.admin.listDatabases().some((d) => d.name === directory.resolve(name));
      await ctx.admin.createDatabase(name, command.ifNotExists);
      if (!existed && options.size > 0) await directory.setOptions(name, [...options]);
      return true;
    }
    case Kind.DropDatabase:
      if (command.composite === true) {
        await directoryOf(ctx).composites.drop(nameOf(command.name, ctx), command.ifExists);
        return true;
      }
      if (!command.cascadeAliases) return false;
      await ctx.admin.dropDatabase(nameOf(command.name, ctx), command.ifExists, true);
      return true;
    default:
      return false;
  }
}
