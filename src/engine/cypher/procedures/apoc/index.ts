/**
 * APOC Core: every namespace's procedures and functions, registered like the built-ins (SHOW
 * PROCEDURES / SHOW FUNCTIONS list them with signature, description and mode).
 */
import type { CypherFunction } from '../../functions/registry.js';
import type { ProcedureDefinition } from '../registry.js';
import { aggEntries } from './agg.js';
import { collEntries } from './coll.js';
import { convertEntries } from './convert.js';
import { createEntries } from './create.js';
import { cypherEntries } from './cypher.js';
import { dateEntries } from './date.js';
import { entityEntries } from './entities.js';
import { helpEntries } from './help.js';
import { mergeEntries } from './merge.js';
import { mapEntries } from './map.js';
import { mathEntries } from './math.js';
import { metaEntries } from './meta.js';
import { numberEntries } from './number.js';
import { periodicEntries } from './periodic.js';
import { textEntries } from './text.js';
import { utilEntries } from './util.js';

/** An APOC entry: a procedure or a function. */
export type ApocEntry = ProcedureDefinition | CypherFunction;

const entries: readonly ApocEntry[] = [...utilEntries, ...metaEntries, ...mergeEntries, ...createEntries, ...entityEntries, ...helpEntries, ...dateEntries, ...collEntries, ...textEntries, ...mapEntries, ...mathEntries, ...numberEntries, ...convertEntries, ...aggEntries, ...cypherEntries, ...periodicEntries];

function isFunction(entry: ApocEntry): entry is CypherFunction {
  return 'kind' in entry;
}

/** The APOC procedures. */
export const apocProcedures: readonly ProcedureDefinition[] = entries.filter((e): e is ProcedureDefinition => !isFunction(e));

/** The APOC functions (scalar and aggregating). */
export const apocFunctions: readonly CypherFunction[] = entries.filter(isFunction);
