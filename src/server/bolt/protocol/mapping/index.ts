import {
  CypherDate,
  CypherDateTime,
  CypherDuration,
  CypherPoint,
  CypherVector,
  CypherTime,
  LocalDateTime,
  LocalTime,
  Node,
  Path,
  Relationship,
  type CypherValue,
} from '../../../../engine/index.js';
import type { StructureHook } from '../../packstream/packer.js';
import { Structure } from '../../packstream/structure.js';
import type { WireValue } from '../../packstream/unpacker.js';
import { invalidValue } from './errors.js';
import { nodeToStructure, pathToStructure, relationshipToStructure } from './graph.js';
import { ValueSignature } from './signatures.js';
import { pointFromStructure, pointToStructure } from './spatial.js';
import { isTemporalSignature, temporalFromStructure, temporalToStructure } from './temporal.js';
import { vectorFromStructure, vectorPlaceholder, vectorToStructure } from './vector.js';

export { ValueSignature } from './signatures.js';

/** How values are shaped for one connection (decided by the negotiated version and patches). */
export interface MappingOptions {
  /** Element ids on graph structures (5.0+). */
  readonly elementIds: boolean;
  /** UTC DateTime structures (5.0+, or 4.4 with the `utc` patch). */
  readonly utcDateTime: boolean;
  /** Vector structures (6.0+); older versions get Neo4j's placeholder map instead. */
  readonly vectors: boolean;
}

/** The Packer hook turning engine values into Bolt structures. */
export function createStructureHook(options: MappingOptions): StructureHook {
  return (value: object): Structure | ReadonlyMap<string, unknown> | undefined => {
    if (value instanceof Node) return nodeToStructure(value, options.elementIds);
    if (value instanceof Relationship) return relationshipToStructure(value, options.elementIds);
    if (value instanceof Path) return pathToStructure(value, options.elementIds);
    if (value instanceof CypherPoint) return pointToStructure(value);
    if (value instanceof CypherVector) return options.vectors ? vectorToStructure(value) : vectorPlaceholder(value);
    if (
      value instanceof CypherDate ||
      value instanceof LocalTime ||
      value instanceof CypherTime ||
      value instanceof LocalDateTime ||
      value instanceof CypherDateTime ||
      value instanceof CypherDuration
    ) {
      return temporalToStructure(value, options.utcDateTime);
    }
    return undefined;
  };
}

/**
 * Converts a decoded parameter into a Cypher value: maps become `ReadonlyMap`s, temporal and
 * spatial structures become engine values, Bolt 6 vectors become VECTOR values. Graph entities are not
 * accepted as parameters.
 */
export function wireToCypher(value: WireValue): CypherValue {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map(wireToCypher);
  if (value instanceof Map) {
    const map = new Map<string, CypherValue>();
    for (const [key, item] of value) map.set(key, wireToCypher(item));
    return map;
  }
  return structureToCypher(value);
}

function structureToCypher(structure: Structure): CypherValue {
  const signature = structure.signature;
  if (isTemporalSignature(signature)) return temporalFromStructure(structure);
  if (signature === ValueSignature.Point2D || signature === ValueSignature.Point3D) return pointFromStructure(structure);
  if (signature === ValueSignature.Vector) return vectorFromStructure(structure);
  if (
    signature === ValueSignature.Node ||
    signature === ValueSignature.Relationship ||
    signature === ValueSignature.UnboundRelationship ||
    signature === ValueSignature.Path
  ) {
    throw invalidValue('Nodes, relationships and paths cannot be passed as parameters');
  }
  throw invalidValue(`Unknown structure signature 0x${signature.toString(16)} in a parameter`);
}
