/**
 * How the memory tools and the decay service reach a database: Cypher statements with
 * parameters, answered with rows of Cypher values. `sessionRunner` runs them on engine sessions
 * (embedded, or the server's with the caller's security context, so RBAC applies as on Bolt and
 * HTTP); a remote runner (neo4j-driver against a running server) implements the same contract.
 */
import type { Session } from '../session/types.js';
import type { CypherValue } from '../values/types.js';

/** Rows of one statement. */
export interface QueryRows {
  readonly keys: readonly string[];
  readonly rows: readonly (readonly CypherValue[])[];
  /** True when `limit` cut the result. */
  readonly more: boolean;
}

/** Options of one statement. */
export interface RunOptions {
  /** READ runs in a read transaction (writes are refused by the engine). Default WRITE. */
  readonly mode?: 'READ' | 'WRITE';
  /** Most rows to fetch; the rest is discarded. Default all. */
  readonly limit?: number;
}

const PAGE_ROWS = 1000;

/** Runs Cypher for the memory layer. */
export interface CypherRunner {
  run(query: string, params?: ReadonlyMap<string, CypherValue>, options?: RunOptions): Promise<QueryRows>;
  /** The Neo4j query type of a statement (`r`, `rw`, `w`, `s`) from its EXPLAIN plan. */
  queryType(query: string, params?: ReadonlyMap<string, CypherValue>): Promise<string>;
}

/** A runner over engine sessions: one session per statement, closed after it. */
export function sessionRunner(openSession: () => Session): CypherRunner {
  return {
    async run(query, params = new Map(), options = {}) {
      const session = openSession();
      try {
        const result = await session.run(query, params, options.mode === 'READ' ? { mode: 'READ' } : {});
        const limit = options.limit ?? Infinity;
        const rows: (readonly CypherValue[])[] = [];
        let more = true;
        // Pages, so a large result (a decay pass over every memory) yields the event loop between them.
        while (more && rows.length < limit) {
          const page = await result.pull(Math.min(PAGE_ROWS, limit - rows.length));
          rows.push(...page.records);
          more = page.hasMore;
        }
        if (more) await result.discard();
        return { keys: result.keys, rows, more };
      } finally {
        await session.close();
      }
    },
    async queryType(query, params = new Map()) {
      const session = openSession();
      try {
        const explained = await session.run(`EXPLAIN ${query}`, params);
        await explained.pull(-1);
        return explained.summary().queryType;
      } finally {
        await session.close();
      }
    },
  };
}
