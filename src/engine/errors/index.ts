export * from './status-codes.js';
export * from './graph-error.js';
