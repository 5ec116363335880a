/**
 * Spatial functions: `point()`, `point.distance()` (alias `distance()`), `point.withinBBox()`.
 */
import { pointDistance, pointFromMap, pointWithinBBox } from '../../values/point.js';
import { CypherPoint } from '../../values/types.js';
import { scalar, wrongType } from './define.js';
import type { ScalarFunction } from './registry.js';

function asPoint(fn: string, v: unknown): CypherPoint {
  if (v instanceof CypherPoint) return v;
  throw wrongType(fn, v as never, 'Point');
}

const distance = (name: string) =>
  scalar(name, { min: 2, category: 'Spatial', description: 'Distance between two points (meters for WGS-84).' }, ([a, b]) =>
    pointDistance(asPoint(name, a), asPoint(name, b)),
  );

/** The spatial functions. */
export const spatialFunctions: readonly ScalarFunction[] = [
  scalar('point', { category: 'Spatial', description: 'A point from a map of coordinates and an optional crs/srid.' }, ([m]) => {
    if (!(m instanceof Map)) throw wrongType('point', m!, 'Map');
    return pointFromMap(m);
  }),
  distance('point.distance'),
  distance('distance'),
  scalar('point.withinBBox', { min: 3, category: 'Spatial', description: 'True if a point lies within a bounding box.' }, ([p, ll, ur]) =>
    pointWithinBBox(asPoint('point.withinBBox', p), asPoint('point.withinBBox', ll), asPoint('point.withinBBox', ur)),
  ),
];
