/**
 * The nesting limit of Cypher input. The parser, the semantic checks, the planner and the
 * expression compiler walk expressions recursively, so the depth of user input must be bounded
 * before any of them runs: too-deep input is a `Neo.ClientError.Statement.SyntaxError` naming the
 * limit, never a stack overflow reported as an internal error.
 *
 * Two checks: the parser counts nested expressions while it descends (parentheses, lists, maps,
 * `NOT NOT ...`, `- - ...`), and `checkTreeDepth` walks the finished tree with an explicit stack,
 * which also catches long operator chains (`1 + 1 + ... + 1` is a left-deep tree).
 */
import { CypherSyntaxError } from '../../errors/index.js';

/** Deepest expression nesting the parser accepts (parentheses, lists, maps, NOT, unary minus). */
export const MAX_NESTING_DEPTH = 200;

/** Deepest finished syntax tree accepted (operator chains are left-deep trees). */
export const MAX_TREE_DEPTH = 4 * MAX_NESTING_DEPTH;

/** The error of input nested deeper than the limit. */
export function nestingError(): CypherSyntaxError {
  return new CypherSyntaxError(
    `The query is nested too deeply: expressions may be nested at most ${MAX_NESTING_DEPTH} levels and an expression tree (operator chains included) may be at most ${MAX_TREE_DEPTH} levels deep. Simplify the query or pass large values as parameters.`,
  );
}

/** Throws the nesting error when the tree under `root` is deeper than the limit. */
export function checkTreeDepth(root: object): void {
  const nodes: unknown[] = [root];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > MAX_TREE_DEPTH) throw nestingError();
    if (Array.isArray(node)) {
      for (const item of node) {
        if (item !== null && typeof item === 'object') {
          nodes.push(item);
          depths.push(depth);
        }
      }
      continue;
    }
    const isNode = typeof (node as { kind?: unknown }).kind === 'string';
    for (const key in node as Record<string, unknown>) {
      const value = (node as Record<string, unknown>)[key];
      if (value !== null && typeof value === 'object' && !(value instanceof Map) && !(value instanceof Set)) {
        nodes.push(value);
        depths.push(isNode ? depth + 1 : depth);
      }
    }
  }
}
