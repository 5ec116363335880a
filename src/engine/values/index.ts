export * from './types.js';
export * from './kinds.js';
export * from './equality.js';
export * from './ordering.js';
export * from './group-key.js';
export * from './arithmetic.js';
export * from './to-string.js';
