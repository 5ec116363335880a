/**
 * Whether a `tx/commit` request may take the write-behind path: every statement must parse and
 * be a pure CREATE (see pure-create.ts). A statement that does not parse is not eligible: it runs
 * synchronously so its error reaches the client.
 */
import { parse } from '../../../engine/cypher/parser/index.js';
import { pureCreateEstimate, type PureCreateEstimate } from './pure-create.js';
import type { StatementRequest } from './statement-results.js';

/** Estimates per statement when the whole request is eligible, else null. */
export function classifyAsyncWrites(statements: readonly StatementRequest[]): PureCreateEstimate[] | null {
  if (statements.length === 0) return null;
  const estimates: PureCreateEstimate[] = [];
  for (const request of statements) {
    let estimate: PureCreateEstimate | null;
    try {
      estimate = pureCreateEstimate(parse(request.statement), request.parameters);
    } catch {
      return null;
    }
    if (estimate === null) return null;
    estimates.push(estimate);
  }
  return estimates;
}
