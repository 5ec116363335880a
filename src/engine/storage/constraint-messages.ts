/**
 * Neo4j-style messages and errors for constraint violations and schema commands (one place,
 * so wording stays consistent).
 */
import { ConstraintValidationFailed, DatabaseError, StatusCodes, graphError, type GraphError, type StatusCode } from '../errors/index.js';
import type { CypherValue } from '../values/types.js';
import type { ConstraintDefinition } from './graph-store.js';
import { valueText } from '../values/to-string.js';

/** Renders a property value the way Neo4j prints it in constraint messages. */
export function formatValue(value: CypherValue): string {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(1) : String(value);
  if (Array.isArray(value)) return `[${(value as readonly CypherValue[]).map(formatValue).join(', ')}]`;
  if (value === null) return 'NO_VALUE';
  return valueText(value);
}

function entityWord(entityType: 'NODE' | 'RELATIONSHIP'): string {
  return entityType === 'NODE' ? 'Node' : 'Relationship';
}

function tokenWord(entityType: 'NODE' | 'RELATIONSHIP'): string {
  return entityType === 'NODE' ? 'label' : 'type';
}

function propertyList(properties: readonly string[], values: readonly CypherValue[]): string {
  if (properties.length === 1) return `property \`${properties[0]}\` = ${formatValue(values[0]!)}`;
  return `properties ${properties.map((p, i) => `\`${p}\` = ${formatValue(values[i]!)}`).join(', ')}`;
}

/** A uniqueness violation by a write. */
export function uniquenessViolation(
  entityType: 'NODE' | 'RELATIONSHIP',
  existingId: bigint,
  token: string,
  properties: readonly string[],
  values: readonly CypherValue[],
): ConstraintValidationFailed {
  return new ConstraintValidationFailed(
    `${entityWord(entityType)}(${existingId}) already exists with ${tokenWord(entityType)} \`${token}\` and ${propertyList(properties, values)}`,
  );
}

/** An existence (or key existence) violation found at commit. */
export function existenceViolation(entityType: 'NODE' | 'RELATIONSHIP', id: bigint, token: string, properties: readonly string[]): string {
  const what = properties.length === 1 ? `property \`${properties[0]}\`` : `properties (${properties.map((p) => `\`${p}\``).join(', ')})`;
  return `${entityWord(entityType)}(${id}) with ${tokenWord(entityType)} \`${token}\` must have the ${what}`;
}

/** A property type violation found at commit. */
export function typeViolation(
  entityType: 'NODE' | 'RELATIONSHIP',
  id: bigint,
  token: string,
  property: string,
  expected: string,
  actual: string,
): string {
  return `${entityWord(entityType)}(${id}) with ${tokenWord(entityType)} \`${token}\` required the property \`${property}\` to be of type \`${expected}\`, but was of type \`${actual}\`.`;
}

/** Non-detach delete of a node that still has relationships (Neo4j 5 wording). */
export function deleteConnectedNode(id: bigint): ConstraintValidationFailed {
  return new ConstraintValidationFailed(
    `Cannot delete node<${id}>, because it still has relationships. To delete this node, you must first delete its relationships.`,
    { detail: 'DeleteConnectedNode' },
  );
}

/** Describes a constraint's schema like Neo4j: `(:Person {name})` / `()-[:KNOWS {since}]-()`. */
export function schemaPattern(definition: Pick<ConstraintDefinition, 'entityType' | 'labelsOrTypes' | 'properties'>): string {
  const props = definition.properties.join(', ');
  return definition.entityType === 'NODE'
    ? `(:${definition.labelsOrTypes.join(':')} {${props}})`
    : `()-[:${definition.labelsOrTypes.join('|')} {${props}}]-()`;
}

/** Creating a constraint over data that violates it. */
export function constraintCreationFailed(definition: ConstraintDefinition, reason: string): DatabaseError {
  return new DatabaseError(
    StatusCodes.ConstraintCreationFailed,
    `Unable to create Constraint( name='${definition.name}', type='${definition.type}', schema=${schemaPattern(definition)} ):\n${reason}`,
  );
}

/** A schema command error with a given code. */
export function schemaError(code: StatusCode, message: string): GraphError {
  return graphError(code, message);
}
