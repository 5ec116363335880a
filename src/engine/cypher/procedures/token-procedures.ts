/**
 * Neo4j 5's token procedures: `db.createLabel`, `db.createRelationshipType` and
 * `db.createProperty` create the label, relationship type or property key token without using
 * it (a VOID WRITE procedure; creating an existing token changes nothing). Tokens are kept in
 * the transaction and rolled back with it. As in Neo4j, `db.propertyKeys()` lists every property
 * key token, while `db.labels()` and `db.relationshipTypes()` list those in use.
 */
import { CypherTypeError } from '../../errors/index.js';
import type { TokenKind } from '../../catalog/tokens.js';
import type { CypherValue } from '../../values/types.js';
import { requireProcedureWriter } from './procedure-writer.js';
import type { ProcedureDefinition } from './registry.js';

function tokenProcedure(name: string, input: string, kind: TokenKind, description: string): ProcedureDefinition {
  return {
    name,
    inputs: [{ name: input, type: 'STRING' }],
    outputs: [],
    mode: 'WRITE',
    description,
    call: ([value]: readonly CypherValue[], ctx) => {
      if (typeof value !== 'string') {
        // The registry has checked the type: only null reaches here.
        throw new CypherTypeError(`Type mismatch for argument \`${input}\` of ${name}: expected STRING but was NULL`);
      }
      requireProcedureWriter(ctx).createToken(kind, value);
      return [];
    },
  };
}

/** The token procedures. */
export const tokenProcedures: readonly ProcedureDefinition[] = [
  tokenProcedure('db.createLabel', 'newLabel', 'label', 'Create a label.'),
  tokenProcedure('db.createRelationshipType', 'newRelationshipType', 'type', 'Create a relationship type.'),
  tokenProcedure('db.createProperty', 'newProperty', 'key', 'Create a property.'),
];
