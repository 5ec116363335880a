/**
 * Fuzz suite (issue #24) against a real server: PackStream messages after the handshake and
 * logon, HTTP transaction API JSON bodies, GraphQL requests and Cypher statements. Every input
 * must get an answer (Bolt: a response or a close; HTTP: a status below 500 with no
 * DatabaseError code; Cypher: rows or a client/transient error), within a deadline. Each target
 * reports inputs tried, crashes and hangs.
 *
 * Budgets are small for CI; `GRAPHDB_FUZZ_RUNS=5000 node test/run.mjs security/fuzz` runs a larger
 * one by hand, `GRAPHDB_FUZZ_SEED=n` replays a seed.
 */
import { inspect } from 'node:util';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { GraphDB } from '../../src/engine/index.js';
import { startBoltServer, type BoltServer } from '../../src/server/bolt/index.js';
import { Structure } from '../../src/server/bolt/packstream/structure.js';
import { open } from '../bolt/helpers/conversation.js';
import { startTestServer, type TestServer } from '../http/helpers.js';

const SEED = Number(process.env.GRAPHDB_FUZZ_SEED ?? 20261125);
const scale = (base: number): number => (process.env.GRAPHDB_FUZZ_RUNS === undefined ? base : Number(process.env.GRAPHDB_FUZZ_RUNS));
const DEADLINE_MS = 10_000;

/** Tallies of one target. */
class Tally {
  inputs = 0;
  crashes: string[] = [];
  hangs: string[] = [];
  report(name: string, diagnostic: (message: string) => void): void {
    diagnostic(`fuzz ${name}: ${this.inputs} inputs, ${this.crashes.length} crashes, ${this.hangs.length} hangs (seed ${SEED})`);
    assert.deepEqual(this.crashes, [], `${name} crashes`);
    assert.deepEqual(this.hangs, [], `${name} hangs`);
  }
}

/** Resolves with `work`'s value, or 'hang' after DEADLINE_MS. */
async function withDeadline<T>(work: Promise<T>): Promise<T | 'hang'> {
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([work, new Promise<'hang'>((resolve) => (timer = setTimeout(() => resolve('hang'), DEADLINE_MS)))]);
  clearTimeout(timer);
  return result;
}

/** PackStream values, structures included, nested a few levels. */
const packValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    fc.double(),
    fc.string({ maxLength: 40 }),
    fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 10 }), tie('value'), { maxKeys: 4 }).map((o) => new Map(Object.entries(o))),
    fc.tuple(fc.integer({ min: 0, max: 127 }), fc.array(tie('value'), { maxLength: 3 })).map(([tag, fields]) => new Structure(tag, fields)),
  ),
})).value;

/** Request signatures, valid ones weighted up, with random fields. */
const boltMessage = fc.tuple(
  fc.oneof(fc.constantFrom(0x01, 0x02, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x2f, 0x3f, 0x54, 0x66, 0x6a, 0x6b), fc.integer({ min: 0, max: 255 })),
  fc.oneof(
    fc.array(packValue, { maxLength: 4 }),
    fc.constant(['RETURN 1 AS x', new Map(), new Map()]),
    fc.tuple(fc.string({ maxLength: 60 }), packValue, packValue),
  ),
);

describe('fuzzing', () => {
  let db: GraphDB;
  let bolt: BoltServer;
  let http: TestServer;
  before(async () => {
    db = await GraphDB.open({ search: false, transactionTimeoutMs: 2000 });
    bolt = await startBoltServer({ port: 0, host: '127.0.0.1', engine: db, authenticate: () => ({ username: 'neo4j', roles: ['admin'] }) });
    http = await startTestServer({ 'server.statement_timeout': 2000 });
  });
  after(async () => {
    await bolt.close();
    await db.close();
    await http.stop();
  });

  test('PackStream messages after handshake and logon get a response or a close', async (t) => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(boltMessage, async ([signature, fields]) => {
        tally.inputs++;
        const client = await open(bolt.port, [5, 4]);
        try {
          client.send(signature, fields);
          const answer = await withDeadline(
            client.next().then(
              () => 'answered' as const,
              () => 'closed' as const,
            ),
          );
          if (answer === 'hang') tally.hangs.push(`0x${signature.toString(16)} ${inspect(fields)}`);
        } finally {
          client.close();
        }
      }),
      { seed: SEED, numRuns: scale(150) },
    );
    const healthy = await open(bolt.port, [5, 4]);
    healthy.send(0x10, ['RETURN 1 AS one', new Map(), new Map()]);
    healthy.send(0x3f, [new Map([['n', -1n]])]);
    assert.equal((await healthy.next()).signature, 0x70);
    healthy.close();
    tally.report('bolt', (m) => t.diagnostic(m));
  });

  test('random bytes framed as chunks after logon get a response or a close', async (t) => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 200 }), async (bytes) => {
        tally.inputs++;
        const client = await open(bolt.port, [5, 4]);
        try {
          const header = Buffer.alloc(2);
          header.writeUInt16BE(bytes.length);
          client.socket.write(Buffer.concat([header, Buffer.from(bytes), Buffer.alloc(2)]));
          const answer = await withDeadline(
            client.next().then(
              () => 'answered' as const,
              () => 'closed' as const,
            ),
          );
          if (answer === 'hang') tally.hangs.push(Buffer.from(bytes).toString('hex'));
        } finally {
          client.close();
        }
      }),
      { seed: SEED, numRuns: scale(150) },
    );
    tally.report('bolt-bytes', (m) => t.diagnostic(m));
  });

  test('HTTP transaction API bodies answer below 500 with client-class codes', async (t) => {
    const tally = new Tally();
    const statement = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.constantFrom('RETURN 1', 'MATCH (n) RETURN n LIMIT 1', 'RETURN $x', 'UNWIND [1,2] AS x RETURN x'),
    );
    const body = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record({
          statements: fc.array(
            fc.record(
              {
                statement,
                parameters: fc.option(fc.jsonValue()),
                resultDataContents: fc.option(fc.array(fc.string())),
                includeStats: fc.option(fc.jsonValue()),
              },
              { requiredKeys: [] },
            ),
            { maxLength: 3 },
          ),
        })
        .map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 80 }),
    );
    const path = fc.constantFrom(
      '/db/graphdb/tx/commit',
      '/db/graphdb/tx',
      '/db/nope/tx/commit',
      '/db/graphdb/tx/12345',
      '/db/graphdb/tx/12345/commit',
    );
    await fc.assert(
      fc.asyncProperty(path, body, async (route, text) => {
        tally.inputs++;
        const response = await withDeadline(
          fetch(`${http.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text }).then(async (r) => ({
            status: r.status,
            text: await r.text(),
          })),
        );
        if (response === 'hang') return void tally.hangs.push(`${route} ${text}`);
        if (response.status >= 500 || response.text.includes('Neo.DatabaseError'))
          tally.crashes.push(`${route} ${text} -> ${response.status} ${response.text.slice(0, 200)}`);
        const location = /\/db\/graphdb\/tx\/([^/"]+)"/.exec(response.text);
        if (route === '/db/graphdb/tx' && response.status === 201 && location)
          await fetch(`${http.url}/db/graphdb/tx/${location[1]}`, { method: 'DELETE' });
      }),
      { seed: SEED, numRuns: scale(200) },
    );
    tally.report('http', (m) => t.diagnostic(m));
  });

  test('GraphQL requests answer client-class errors for bad input', async (t) => {
    const tally = new Tally();
    const token = fc.constantFrom(
      '{',
      '}',
      '(',
      ')',
      'query',
      'mutation',
      '__typename',
      '__schema',
      'types',
      'name',
      '$v',
      ':',
      'Int',
      '!',
      '...',
      'on',
      '@skip',
      'if:',
      'true',
      '"s"',
      '1',
      '[',
      ']',
      'fragment',
      'F',
    );
    const query = fc.oneof(
      fc.array(token, { maxLength: 25 }).map((ts) => ts.join(' ')),
      fc.string({ maxLength: 60 }),
      fc.constant('{ __typename }'),
    );
    const body = fc.oneof(
      fc
        .record(
          { query: fc.oneof(query, fc.jsonValue()), variables: fc.option(fc.jsonValue()), operationName: fc.option(fc.jsonValue()) },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 60 }),
    );
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        tally.inputs++;
        const response = await withDeadline(
          fetch(`${http.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text }).then(async (r) => ({
            status: r.status,
            text: await r.text(),
          })),
        );
        if (response === 'hang') return void tally.hangs.push(text);
        if (response.status >= 500 || response.text.includes('Neo.DatabaseError'))
          tally.crashes.push(`${text} -> ${response.status} ${response.text.slice(0, 200)}`);
      }),
      { seed: SEED, numRuns: scale(200) },
    );
    tally.report('graphql', (m) => t.diagnostic(m));
  });

  test('Cypher statements end in rows or a client/transient error', async (t) => {
    const tally = new Tally();
    const word = fc.constantFrom(
      'MATCH',
      'RETURN',
      'WITH',
      'UNWIND',
      'CREATE',
      'MERGE',
      'WHERE',
      'OPTIONAL',
      'CALL',
      'YIELD',
      'ORDER BY',
      'LIMIT',
      'SKIP',
      'AS',
      'AND',
      'OR',
      'NOT',
      'IN',
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      '-',
      '->',
      '<-',
      ':',
      ',',
      '.',
      '|',
      '*',
      '+',
      '=~',
      '=',
      '<>',
      '$p',
      'n',
      'm',
      'r',
      'x',
      ':L',
      ':T',
      '1',
      '-1',
      '0.5',
      "'a'",
      'null',
      'true',
      'count(*)',
      'collect(x)',
      'range(1, 5)',
      'size',
      'toString',
      'reduce',
      'EXISTS',
      'COUNT',
      'CASE',
      'WHEN',
      'THEN',
      'ELSE',
      'END',
      'shortestPath',
      'DISTINCT',
      '9223372036854775807',
    );
    const statement = fc.oneof(
      fc.array(word, { minLength: 1, maxLength: 18 }).map((ws) => ws.join(' ')),
      fc
        .tuple(
          fc.constantFrom('RETURN ', 'MATCH (n) RETURN ', 'UNWIND [1, null, "a"] AS x RETURN '),
          fc.array(word, { minLength: 1, maxLength: 8 }),
        )
        .map(([prefix, ws]) => prefix + ws.join(' ')),
      fc.string({ maxLength: 40 }),
    );
    await fc.assert(
      fc.asyncProperty(statement, async (text) => {
        tally.inputs++;
        const outcome = await withDeadline(
          (async () => {
            const session = db.session();
            try {
              const result = await session.run(text, { p: 1n });
              await result.pull(1000);
              await result.discard();
              return 'ok';
            } catch (error) {
              const code = (error as { code?: unknown }).code;
              return typeof code === 'string' && /^Neo\.(ClientError|TransientError)\./.test(code)
                ? 'client'
                : `crash ${String(code)} ${(error as Error).message}`;
            } finally {
              await session.close();
            }
          })(),
        );
        if (outcome === 'hang') tally.hangs.push(text);
        else if (outcome.startsWith('crash')) tally.crashes.push(`${text} -> ${outcome}`);
      }),
      { seed: SEED, numRuns: scale(400) },
    );
    tally.report('cypher', (m) => t.diagnostic(m));
  });
});
