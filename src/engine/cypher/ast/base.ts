import type { Kind } from './kinds.js';

/**
 * Where a node came from in the statement text: `start`/`end` are 0-based offsets (end exclusive),
 * `line`/`column` are the 1-based position of `start`.
 */
export interface Location {
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly column: number;
}

/** Fields every AST node has. `loc` is absent on nodes built by hand (tests, rewrites). */
export interface BaseNode {
  readonly kind: Kind;
  readonly loc?: Location;
}
