export { Structure, MAX_STRUCTURE_FIELDS } from './structure.js';
export { PackStreamError } from './errors.js';
export { Marker, INT64_MAX, INT64_MIN } from './markers.js';
export { Packer, PackError, type StructureHook } from './packer.js';
export { Unpacker, unpackOne, DEFAULT_UNPACK_LIMITS, type UnpackLimits, type WireValue } from './unpacker.js';
