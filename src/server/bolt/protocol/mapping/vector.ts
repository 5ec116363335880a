import type { CypherValue } from '../../../../engine/index.js';
import { Structure } from '../../packstream/structure.js';
import { invalidValue } from './errors.js';

/** Element types of a Bolt 6 Vector, by the PackStream marker naming them. */
const ELEMENT_TYPES: Readonly<Record<number, { readonly size: number; readonly read: (view: DataView, at: number) => CypherValue }>> = {
  0xc6: { size: 4, read: (view, at) => view.getFloat32(at) },
  0xc1: { size: 8, read: (view, at) => view.getFloat64(at) },
  0xc8: { size: 1, read: (view, at) => BigInt(view.getInt8(at)) },
  0xc9: { size: 2, read: (view, at) => BigInt(view.getInt16(at)) },
  0xca: { size: 4, read: (view, at) => BigInt(view.getInt32(at)) },
  0xcb: { size: 8, read: (view, at) => view.getBigInt64(at) },
};

/**
 * A Bolt 6 Vector parameter (`V(type: Bytes[1], data: Bytes)`, big-endian elements) as the
 * engine's nearest type: a LIST of FLOAT for float vectors, of INTEGER for integer vectors.
 */
export function vectorFromStructure(structure: Structure): CypherValue {
  const [marker, data] = structure.fields;
  if (structure.fields.length !== 2 || !(marker instanceof Uint8Array) || marker.length !== 1 || !(data instanceof Uint8Array)) {
    throw invalidValue('Invalid Vector structure');
  }
  const type = ELEMENT_TYPES[marker[0]!];
  if (!type) throw invalidValue(`Unsupported Vector element type 0x${marker[0]!.toString(16)}`);
  if (data.length % type.size !== 0) throw invalidValue('Vector data is not a whole number of elements');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const values: CypherValue[] = [];
  for (let at = 0; at < data.length; at += type.size) values.push(type.read(view, at));
  return values;
}
