/**
 * The columns of each SHOW command, as Neo4j 5 reports them: the default set (a bare SHOW, or
 * SHOW ... WHERE) and the full set (`YIELD *`, and the names a `YIELD a, b` may pick from).
 */
import type { ShowTarget } from '../ast/index.js';

/** Default and full column lists of one SHOW target. */
export interface ShowColumns {
  readonly defaults: readonly string[];
  readonly all: readonly string[];
}

const INDEX_DEFAULTS = [
  'id',
  'name',
  'state',
  'populationPercent',
  'type',
  'entityType',
  'labelsOrTypes',
  'properties',
  'indexProvider',
  'owningConstraint',
  'lastRead',
  'readCount',
] as const;

const CONSTRAINT_DEFAULTS = ['id', 'name', 'type', 'entityType', 'labelsOrTypes', 'properties', 'ownedIndex', 'propertyType'] as const;

const DATABASE_DEFAULTS = [
  'name',
  'type',
  'aliases',
  'access',
  'address',
  'role',
  'writer',
  'requestedStatus',
  'currentStatus',
  'statusMessage',
  'default',
  'home',
  'constituents',
] as const;

const TRANSACTION_DEFAULTS = [
  'database',
  'transactionId',
  'currentQueryId',
  'connectionId',
  'clientAddress',
  'username',
  'currentQuery',
  'startTime',
  'status',
  'elapsedTime',
] as const;

const TRANSACTION_EXTRAS = [
  'outerTransactionId',
  'metaData',
  'parameters',
  'currentQueryStartTime',
  'protocol',
  'requestUri',
  'currentQueryStatus',
  'statusDetails',
  'activeLockCount',
  'currentQueryElapsedTime',
  'waitTime',
  'idleTime',
] as const;

const SETTING_DEFAULTS = ['name', 'value', 'isDynamic', 'defaultValue', 'description'] as const;

const USER_COLUMNS = ['user', 'roles', 'passwordChangeRequired', 'suspended', 'home'] as const;
const PRIVILEGE_COLUMNS = ['access', 'action', 'resource', 'graph', 'segment', 'role', 'immutable'] as const;
const COMMAND_COLUMNS: ShowColumns = { defaults: ['command'], all: ['command', 'immutable'] };

const COLUMNS: Partial<Record<ShowTarget, ShowColumns>> = {
  USERS: { defaults: USER_COLUMNS, all: USER_COLUMNS },
  'CURRENT USER': { defaults: USER_COLUMNS, all: USER_COLUMNS },
  ROLES: { defaults: ['role'], all: ['role'] },
  'ROLES WITH USERS': { defaults: ['role', 'member'], all: ['role', 'member'] },
  PRIVILEGES: { defaults: PRIVILEGE_COLUMNS, all: PRIVILEGE_COLUMNS },
  'ROLE PRIVILEGES': { defaults: PRIVILEGE_COLUMNS, all: PRIVILEGE_COLUMNS },
  'USER PRIVILEGES': { defaults: [...PRIVILEGE_COLUMNS, 'user'], all: [...PRIVILEGE_COLUMNS, 'user'] },
  TRANSACTIONS: { defaults: TRANSACTION_DEFAULTS, all: [...TRANSACTION_DEFAULTS, ...TRANSACTION_EXTRAS] },
  'TERMINATE TRANSACTIONS': { defaults: ['transactionId', 'username', 'message'], all: ['transactionId', 'username', 'message'] },
  SETTINGS: { defaults: SETTING_DEFAULTS, all: [...SETTING_DEFAULTS, 'startupValue', 'isExplicitlySet', 'validValues', 'isDeprecated'] },
  INDEXES: { defaults: INDEX_DEFAULTS, all: [...INDEX_DEFAULTS, 'trackedSince', 'options', 'failureMessage', 'createStatement'] },
  CONSTRAINTS: { defaults: CONSTRAINT_DEFAULTS, all: [...CONSTRAINT_DEFAULTS, 'options', 'createStatement'] },
  DATABASES: { defaults: DATABASE_DEFAULTS, all: DATABASE_DEFAULTS },
  DATABASE: { defaults: DATABASE_DEFAULTS, all: DATABASE_DEFAULTS },
  'DEFAULT DATABASE': { defaults: DATABASE_DEFAULTS, all: DATABASE_DEFAULTS },
  'HOME DATABASE': { defaults: DATABASE_DEFAULTS, all: DATABASE_DEFAULTS },
  ALIASES: {
    defaults: ['name', 'composite', 'database', 'location', 'url', 'user'],
    all: ['name', 'composite', 'database', 'location', 'url', 'user', 'driver', 'defaultLanguage', 'properties'],
  },
  LIMITS: { defaults: ['database', 'limit', 'value', 'description'], all: ['database', 'limit', 'value', 'description'] },
  PROCEDURES: {
    defaults: ['name', 'description', 'mode', 'worksOnSystem'],
    all: ['name', 'description', 'mode', 'worksOnSystem', 'signature', 'admin', 'isDeprecated'],
  },
  FUNCTIONS: {
    defaults: ['name', 'category', 'description'],
    all: ['name', 'category', 'description', 'signature', 'isBuiltIn', 'aggregating', 'isDeprecated'],
  },
};

/** The columns of `target` (privileges `AS [REVOKE] COMMANDS` list commands), or null when the engine does not list that target. */
export function showColumns(target: ShowTarget, filter: string | null = null): ShowColumns | null {
  if (target.endsWith('PRIVILEGES') && filter !== null && filter.startsWith('AS ')) return COMMAND_COLUMNS;
  return COLUMNS[target] ?? null;
}
