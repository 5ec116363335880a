import {
  VECTOR_TYPE_MARKERS,
  vectorFromBytes,
  vectorToBytes,
  vectorTypeOfMarker,
  type CypherValue,
  type CypherVector,
} from '../../../../engine/index.js';
import { Structure } from '../../packstream/structure.js';
import { invalidValue } from './errors.js';
import { ValueSignature } from './signatures.js';

/**
 * A Bolt 6 Vector parameter (`V(type_marker: Bytes[1], data: Bytes)`, big-endian coordinates) as
 * a VECTOR value of the coordinate type the marker names.
 */
export function vectorFromStructure(structure: Structure): CypherValue {
  const [marker, data] = structure.fields;
  if (structure.fields.length !== 2 || !(marker instanceof Uint8Array) || marker.length !== 1 || !(data instanceof Uint8Array)) {
    throw invalidValue('Invalid Vector structure');
  }
  const type = vectorTypeOfMarker(marker[0]!);
  if (type === undefined) throw invalidValue(`Unsupported Vector element type 0x${marker[0]!.toString(16)}`);
  try {
    return vectorFromBytes(type, data, false);
  } catch (error) {
    throw invalidValue(`Invalid Vector structure: ${(error as Error).message}`);
  }
}

/** A VECTOR as Bolt 6's Vector structure. */
export function vectorToStructure(vector: CypherVector): Structure {
  return new Structure(ValueSignature.Vector, [Uint8Array.of(VECTOR_TYPE_MARKERS[vector.coordinateType]), vectorToBytes(vector, false)]);
}

const LONG_TYPE_NAMES: Readonly<Record<CypherVector['coordinateType'], string>> = {
  INTEGER8: 'INTEGER8',
  INTEGER16: 'INTEGER16',
  INTEGER32: 'INTEGER32',
  INTEGER: 'INTEGER64',
  FLOAT32: 'FLOAT32',
  FLOAT: 'FLOAT64',
};

/**
 * What Neo4j sends a client on a Bolt version before 6.0 in place of a VECTOR:
 * `{originalType: "VECTOR(3, INTEGER64)", reason: "UNKNOWN_TYPE"}`.
 */
export function vectorPlaceholder(vector: CypherVector): ReadonlyMap<string, unknown> {
  return new Map<string, unknown>([
    ['originalType', `VECTOR(${vector.dimension}, ${LONG_TYPE_NAMES[vector.coordinateType]})`],
    ['reason', 'UNKNOWN_TYPE'],
  ]);
}
