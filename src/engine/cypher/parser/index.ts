import type { Statement, StatementAst } from '../ast/statements.js';
import { Parser } from './parser.js';

export { Parser } from './parser.js';
export { measureFrontendThroughput, type FrontendThroughput } from './throughput.js';

/**
 * Parses one Cypher statement (an optional trailing `;` is allowed).
 * Throws `CypherSyntaxError` (with `position` and a TCK `detail`) on malformed input.
 */
export function parse(text: string): StatementAst {
  return new Parser(text).parseStatement();
}

/** Parses `;`-separated statements (as the HTTP API allows). */
export function parseStatements(text: string): Statement[] {
  return new Parser(text).parseStatements();
}
