import { CypherPoint } from '../../../../engine/index.js';
import { Structure } from '../../packstream/structure.js';
import { invalidValue } from './errors.js';
import { ValueSignature } from './signatures.js';

/** POINT as `X(srid, x, y)` or `Y(srid, x, y, z)`. */
export function pointToStructure(point: CypherPoint): Structure {
  return point.z === null
    ? new Structure(ValueSignature.Point2D, [BigInt(point.srid), point.x, point.y])
    : new Structure(ValueSignature.Point3D, [BigInt(point.srid), point.x, point.y, point.z]);
}

/** Decodes a point structure received as a parameter. */
export function pointFromStructure(structure: Structure): CypherPoint {
  const is3d = structure.signature === ValueSignature.Point3D;
  const [srid, x, y, z] = structure.fields;
  if (structure.fields.length !== (is3d ? 4 : 3) || typeof srid !== 'bigint') {
    throw invalidValue('Invalid Point structure');
  }
  const coordinates = is3d ? [x, y, z] : [x, y];
  if (!coordinates.every((c) => typeof c === 'number')) throw invalidValue('Point coordinates must be floats');
  return new CypherPoint(Number(srid), x as number, y as number, is3d ? (z as number) : null);
}
