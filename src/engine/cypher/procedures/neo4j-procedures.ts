/**
 * Neo4j 5's built-in procedures beyond the introspection set (builtin.ts): vector writes and
 * index creation, full-text administration, DBMS information, planner maintenance, change data capture, GenAI vector
 * encoding, token creation and entity version history.
 */
import { cdcProcedures } from './cdc-procedures.js';
import { historyProcedures } from './history-procedures.js';
import { dbmsProcedures } from './dbms-procedures.js';
import { fulltextAdminProcedures } from './fulltext-procedures.js';
import { genaiProcedures } from './genai-procedures.js';
import type { ProcedureDefinition } from './registry.js';
import { tokenProcedures } from './token-procedures.js';
import { vectorWriteProcedures } from './vector-procedures.js';

/** Every procedure of this set. */
export function neo4jProcedures(): ProcedureDefinition[] {
  return [
    ...vectorWriteProcedures(),
    ...fulltextAdminProcedures,
    ...dbmsProcedures,
    ...cdcProcedures,
    ...historyProcedures,
    ...genaiProcedures,
    ...tokenProcedures,
  ];
}
