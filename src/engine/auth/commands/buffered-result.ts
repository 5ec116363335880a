/** A ResultStream over rows computed up front (administration command results). */
import { ZERO_COUNTERS } from '../../session/result-stream.js';
import type { ResultStream, ResultSummary } from '../../session/types.js';
import type { CypherValue } from '../../values/types.js';

/** A finished command's rows and summary. */
export class BufferedResult implements ResultStream {
  private position = 0;
  private readonly summaryValue: ResultSummary;

  constructor(
    readonly keys: readonly string[],
    private readonly rows: readonly (readonly CypherValue[])[],
    database: string,
    systemUpdates: number,
    startedAt: number,
  ) {
    const elapsed = Date.now() - startedAt;
    this.summaryValue = {
      database,
      queryType: systemUpdates > 0 ? 's' : 'r',
      counters: { ...ZERO_COUNTERS, systemUpdates, containsUpdates: false },
      notifications: [],
      resultAvailableAfter: elapsed,
      resultConsumedAfter: elapsed,
    };
  }

  async pull(n: number): Promise<{ readonly records: readonly (readonly CypherValue[])[]; readonly hasMore: boolean }> {
    const end = n < 0 ? this.rows.length : Math.min(this.rows.length, this.position + n);
    const records = this.rows.slice(this.position, end);
    this.position = end;
    return { records, hasMore: this.position < this.rows.length };
  }

  async discard(): Promise<ResultSummary> {
    this.position = this.rows.length;
    return this.summaryValue;
  }

  summary(): ResultSummary {
    return this.summaryValue;
  }
}
