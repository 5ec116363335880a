export * from './types.js';
export * from './kinds.js';
export * from './equality.js';
export * from './ordering.js';
export * from './group-key.js';
export * from './arithmetic.js';
export * from './to-string.js';
export { temporalProperty } from './temporal/properties.js';
export { pointFromMap, pointDistance, pointWithinBBox, pointProperty } from './point.js';
export { formatDuration } from './temporal/duration.js';
export { zoneOffsetAt } from './temporal/time-zone.js';
export {
  makeVector,
  vectorOf,
  vectorCoordinateType,
  isIntegerCoordinateType,
  matchesVectorType,
  vectorDistance,
  vectorNorm,
  vectorsEqual,
  compareVectors,
  vectorGroupKey,
  MAX_VECTOR_DIMENSION,
  VECTOR_TYPE_MARKERS,
  vectorTypeOfMarker,
  vectorToBytes,
  vectorFromBytes,
  VECTOR_DISTANCE_METRICS,
  VECTOR_NORM_METRICS,
  type VectorDistanceMetric,
  type VectorNormMetric,
} from './vector.js';
