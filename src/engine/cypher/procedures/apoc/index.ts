/**
 * APOC Core: every namespace's procedures and functions, registered like the built-ins (SHOW
 * PROCEDURES / SHOW FUNCTIONS list them with signature, description and mode).
 */
import type { CypherFunction } from '../../functions/registry.js';
import type { ProcedureDefinition } from '../registry.js';
import { createEntries } from './create.js';
import { dateEntries } from './date.js';
import { entityEntries } from './entities.js';
import { helpEntries } from './help.js';
import { mergeEntries } from './merge.js';
import { metaEntries } from './meta.js';
import { utilEntries } from './util.js';

/** An APOC entry: a procedure or a function. */
export type ApocEntry = ProcedureDefinition | CypherFunction;

const entries: readonly ApocEntry[] = [...utilEntries, ...metaEntries, ...mergeEntries, ...createEntries, ...entityEntries, ...helpEntries, ...dateEntries];

function isFunction(entry: ApocEntry): entry is CypherFunction {
  return 'kind' in entry;
}

/** The APOC procedures. */
export const apocProcedures: readonly ProcedureDefinition[] = entries.filter((e): e is ProcedureDefinition => !isFunction(e));

/** The APOC functions (scalar and aggregating). */
export const apocFunctions: readonly CypherFunction[] = entries.filter(isFunction);
