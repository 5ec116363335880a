import { analyze } from '../semantic/analyze.js';
import { Parser } from './parser.js';

/** Front-end speed over a query corpus (queries per second, each query counted once per pass). */
export interface FrontendThroughput {
  readonly queries: number;
  readonly passes: number;
  /** Lex + parse only. */
  readonly parsePerSecond: number;
  /** Lex + parse + semantic analysis (what an uncached statement costs before planning). */
  readonly compilePerSecond: number;
  /** Queries the parser or analysis rejected (they still count: rejecting costs time too). */
  readonly rejected: number;
}

/**
 * Measures how fast the front end handles `queries`, repeating whole passes until each phase
 * has run for at least `minDurationMs` (default 1000 ms). Used by the bench harness
 * (`bench/`), e.g. over the TCK corpus.
 */
export function measureFrontendThroughput(queries: readonly string[], minDurationMs = 1000): FrontendThroughput {
  let rejected = 0;
  for (const query of queries) {
    try {
      for (const statement of new Parser(query).parseStatements()) analyze(statement);
    } catch {
      rejected++;
    }
  }
  const run = (compileToo: boolean): { passes: number; perSecond: number } => {
    let passes = 0;
    const started = performance.now();
    do {
      for (const query of queries) {
        try {
          const statements = new Parser(query).parseStatements();
          if (compileToo) for (const statement of statements) analyze(statement);
        } catch {
          // Rejected queries are timed like accepted ones.
        }
      }
      passes++;
    } while (performance.now() - started < minDurationMs);
    const seconds = (performance.now() - started) / 1000;
    return { passes, perSecond: (passes * queries.length) / seconds };
  };
  const parseOnly = run(false);
  const compile = run(true);
  return {
    queries: queries.length,
    passes: Math.min(parseOnly.passes, compile.passes),
    parsePerSecond: Math.round(parseOnly.perSecond),
    compilePerSecond: Math.round(compile.perSecond),
    rejected,
  };
}
