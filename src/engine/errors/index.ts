export * from './status-codes.js';
export * from './graph-error.js';
export { toGraphError } from './to-graph-error.js';
