/**
 * Whether a `tx/commit` request may take the HTTP write-behind path: every statement must compile
 * (parse and semantic analysis, through a query cache so repeated texts cost one lookup) and be
 * a pure CREATE (see pure-create.ts). A statement that does not compile is not eligible: it runs
 * synchronously so its error reaches the client.
 */
import type { CypherValue } from '../values/types.js';
import { QueryCache } from './query-cache.js';
import { pureCreateEstimate, type PureCreateEstimate } from './pure-create.js';

export type { PureCreateEstimate } from './pure-create.js';

/** One statement of a request, as the classifier needs it. */
export interface ClassifiedStatement {
  readonly statement: string;
  readonly parameters: ReadonlyMap<string, CypherValue>;
}

/** Classifies requests for the write-behind path. */
export class AsyncWriteClassifier {
  constructor(private readonly cache: QueryCache = new QueryCache()) {}

  /** Estimates per statement when the whole request is eligible, else null. */
  classify(statements: readonly ClassifiedStatement[]): PureCreateEstimate[] | null {
    if (statements.length === 0) return null;
    const estimates: PureCreateEstimate[] = [];
    for (const request of statements) {
      let estimate: PureCreateEstimate | null;
      try {
        estimate = pureCreateEstimate(this.cache.compile(request.statement).ast, request.parameters);
      } catch {
        return null;
      }
      if (estimate === null) return null;
      estimates.push(estimate);
    }
    return estimates;
  }
}
