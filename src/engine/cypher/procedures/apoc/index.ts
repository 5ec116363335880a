/**
 * APOC Core: every namespace's procedures and functions, registered like the built-ins (SHOW
 * PROCEDURES / SHOW FUNCTIONS list them with signature, description and mode).
 */
import { builtinFunctions } from '../../functions/index.js';
import type { CypherFunction } from '../../functions/registry.js';
import type { ProcedureDefinition } from '../registry.js';
import { aggEntries } from './agg.js';
import { atomicSchemaEntries } from './atomic-schema.js';
import { collEntries } from './coll.js';
import { convertEntries } from './convert.js';
import { createEntries } from './create.js';
import { cypherEntries } from './cypher.js';
import { dateEntries } from './date.js';
import { entityEntries } from './entities.js';
import { exportEntries } from './export.js';
import { graphEntries } from './graph.js';
import { helpEntries } from './help.js';
import { mergeEntries } from './merge.js';
import { loadEntries, xmlImportEntries } from './load.js';
import { mapEntries } from './map.js';
import { mathEntries } from './math.js';
import { metaEntries } from './meta.js';
import { numberEntries } from './number.js';
import { miscEntries } from './misc.js';
import { nodesEntries } from './nodes.js';
import { pathEntries } from './path.js';
import { periodicEntries } from './periodic.js';
import { refactorEntries } from './refactor.js';
import { textEntries } from './text.js';
import { utilEntries } from './util.js';

/** An APOC entry: a procedure or a function. */
export type ApocEntry = ProcedureDefinition | CypherFunction;

const entries: readonly ApocEntry[] = [
  ...utilEntries,
  ...metaEntries,
  ...mergeEntries,
  ...createEntries,
  ...entityEntries,
  ...helpEntries,
  ...dateEntries,
  ...collEntries,
  ...textEntries,
  ...mapEntries,
  ...mathEntries,
  ...numberEntries,
  ...convertEntries,
  ...aggEntries,
  ...cypherEntries,
  ...periodicEntries,
  ...pathEntries,
  ...nodesEntries,
  ...atomicSchemaEntries,
  ...miscEntries,
  ...graphEntries,
  ...refactorEntries,
  ...exportEntries,
  ...loadEntries,
  ...xmlImportEntries,
];

function isFunction(entry: ApocEntry): entry is CypherFunction {
  return 'kind' in entry;
}

/** The APOC procedures. */
export const apocProcedures: readonly ProcedureDefinition[] = entries.filter((e): e is ProcedureDefinition => !isFunction(e));

/** The APOC functions (scalar and aggregating). */
export const apocFunctions: readonly CypherFunction[] = entries.filter(isFunction);

builtinFunctions.registerAll(apocFunctions);
