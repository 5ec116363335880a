import type { Statement, StatementAst } from '../ast/statements.js';
import { Parser } from './parser.js';
import { checkTreeDepth } from './nesting-limit.js';

export { Parser } from './parser.js';
export { measureFrontendThroughput, type FrontendThroughput } from './throughput.js';

/**
 * Parses one Cypher statement (an optional trailing `;` is allowed).
 * Throws `CypherSyntaxError` (with `position` and a TCK `detail`) on malformed input.
 */
export function parse(text: string): StatementAst {
  const statement = new Parser(text).parseStatement();
  checkTreeDepth(statement);
  return statement;
}

/** Parses `;`-separated statements (as the HTTP API allows). */
export function parseStatements(text: string): Statement[] {
  const statements = new Parser(text).parseStatements();
  checkTreeDepth(statements);
  return statements;
}
