/**
 * A tiny scripted engine for Bolt tests of the protocol layers (no Cypher): each query text
 * picks a canned behaviour. End-to-end tests with the real engine live in e2e-*.test.ts.
 */
import { WriteConflict, graphError } from '../../../src/engine/errors/index.js';
import type {
  QueryParameters,
  ResultStream,
  ResultSummary,
  Session,
  SessionOptions,
  Transaction,
  TransactionOptions,
} from '../../../src/engine/session/types.js';
import { CypherDateTime, Node, Path, Relationship, type CypherValue } from '../../../src/engine/values/types.js';

const alice = new Node(1n, '4:db:1', ['Person'], new Map([['name', 'Alice']]));
const bob = new Node(2n, '4:db:2', ['Person'], new Map([['name', 'Bob']]));
const knows = new Relationship(7n, '5:db:7', 'KNOWS', 2n, 1n, '4:db:2', '4:db:1', new Map([['since', 2020n]]));
/** `2024-06-01T12:00:00+02:00[Europe/Stockholm]` as the engine holds it. */
const stockholm = new CypherDateTime(1717236000n, 0, 7200, 'Europe/Stockholm');

const zeroCounters = {
  nodesCreated: 0,
  nodesDeleted: 0,
  relationshipsCreated: 0,
  relationshipsDeleted: 0,
  propertiesSet: 0,
  labelsAdded: 0,
  labelsRemoved: 0,
  indexesAdded: 0,
  indexesRemoved: 0,
  constraintsAdded: 0,
  constraintsRemoved: 0,
  systemUpdates: 0,
  containsUpdates: false,
};

/** Observations the tests assert on. */
export interface FakeEngineLog {
  sessions: SessionOptions[];
  runs: { query: string; parameters: ReadonlyMap<string, CypherValue>; options?: TransactionOptions }[];
  commits: number;
  rollbacks: number;
  /** Records handed out by streams (backpressure test). */
  produced: number;
}

function toMap(parameters: QueryParameters | undefined): ReadonlyMap<string, CypherValue> {
  if (!parameters) return new Map();
  return parameters instanceof Map ? parameters : new Map(Object.entries(parameters));
}

class ListStream implements ResultStream {
  private index = 0;
  constructor(
    readonly keys: readonly string[],
    private readonly rows: (i: number) => readonly CypherValue[] | undefined,
    private readonly count: number,
    private readonly summaryValue: ResultSummary,
    private readonly log: FakeEngineLog,
    readonly bookmark?: string,
  ) {}

  async pull(n: number) {
    const records: (readonly CypherValue[])[] = [];
    while ((n < 0 || records.length < n) && this.index < this.count) {
      records.push(this.rows(this.index++)!);
      this.log.produced++;
    }
    return { records, hasMore: this.index < this.count };
  }

  async discard() {
    this.index = this.count;
    return this.summaryValue;
  }

  summary() {
    return this.summaryValue;
  }
}

/** Creates the fake engine and its observation log. */
export function createFakeEngine(): { engine: { session(options?: SessionOptions): Session }; log: FakeEngineLog } {
  const log: FakeEngineLog = { sessions: [], runs: [], commits: 0, rollbacks: 0, produced: 0 };
  let bookmarks = 0;
  let conflictsLeft = 0;

  const execute = (database: string, query: string, parameters: ReadonlyMap<string, CypherValue>): ResultStream => {
    const summary = (extra: Partial<ResultSummary> = {}): ResultSummary => ({
      database,
      queryType: 'r',
      counters: zeroCounters,
      notifications: [],
      resultAvailableAfter: 0,
      resultConsumedAfter: 1,
      ...extra,
    });
    const [verb, arg] = query.split(' ');
    switch (verb) {
      case 'ONE':
        return new ListStream(['n'], () => [1n], 1, summary(), log);
      case 'ECHO':
        return new ListStream(['x'], () => [parameters.get('x') ?? null], 1, summary(), log);
      case 'RANGE': {
        const count = Number(parameters.get('n') ?? BigInt(arg ?? '0'));
        return new ListStream(['i', 'text'], (i) => [BigInt(i), `row number ${i} with some padding text`], count, summary(), log);
      }
      case 'GRAPH':
        return new ListStream(['a', 'r', 'p', 'dt'], () => [alice, knows, new Path([alice, bob], [knows]), stockholm], 1, summary(), log);
      case 'FAIL':
        throw graphError(arg ?? 'Neo.ClientError.Statement.SyntaxError', `Scripted failure ${arg ?? ''}`.trim());
      case 'CONFLICT_TIMES':
        conflictsLeft = Number(arg);
        return new ListStream([], () => [], 0, summary(), log);
      case 'CONFLICT':
        if (conflictsLeft > 0) {
          conflictsLeft--;
          throw new WriteConflict();
        }
        return new ListStream(['ok'], () => [true], 1, summary({ queryType: 'w' }), log);
      case 'CREATE':
        return new ListStream(
          [],
          () => [],
          0,
          summary({ queryType: 'w', counters: { ...zeroCounters, nodesCreated: 2, propertiesSet: 3, containsUpdates: true } }),
          log,
          `bm:${++bookmarks}`,
        );
      case 'NOTIFY':
        return new ListStream(
          ['n'],
          () => [1n],
          1,
          summary({
            notifications: [
              {
                code: 'Neo.ClientNotification.Statement.CartesianProduct',
                title: 'Cartesian',
                description: 'A cartesian product',
                severity: 'WARNING',
                position: { offset: 0, line: 1, column: 1 },
              },
            ],
            plan: { operatorType: 'ProduceResults', identifiers: ['n'], arguments: { planner: 'COST' }, children: [] },
          }),
          log,
        );
      default:
        throw graphError('Neo.ClientError.Statement.SyntaxError', `Unknown scripted query: ${query}`);
    }
  };

  const engine = {
    session(options: SessionOptions = {}): Session {
      log.sessions.push(options);
      const database = options.database ?? 'neo4j';
      if (database === 'missing') {
        throw graphError('Neo.ClientError.Database.DatabaseNotFound', `Database does not exist. Database name: 'missing'.`);
      }
      let last: string | null = null;
      return {
        database,
        async run(query, parameters, runOptions) {
          const map = toMap(parameters);
          log.runs.push({ query, parameters: map, options: runOptions });
          const stream = execute(database, query, map);
          if (stream.bookmark) last = stream.bookmark;
          return stream;
        },
        async beginTransaction(txOptions): Promise<Transaction> {
          let open = true;
          return {
            id: `tx-${log.runs.length}`,
            get isOpen() {
              return open;
            },
            async run(query, parameters) {
              const map = toMap(parameters);
              log.runs.push({ query, parameters: map, options: txOptions });
              return execute(database, query, map);
            },
            async commit() {
              open = false;
              log.commits++;
              last = `bm:${++bookmarks}`;
              return last;
            },
            async rollback() {
              open = false;
              log.rollbacks++;
            },
          };
        },
        lastBookmark: () => last,
        async close() {},
      };
    },
  };
  return { engine, log };
}
