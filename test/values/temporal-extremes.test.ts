/**
 * Temporal values at the ends of Neo4j's range (±999,999,999 years) stay exact: their seconds
 * need 55 bits, past a double's exact integers. Checked through Cypher, the storage codec, the
 * typed JSON of export/import, and neo4j-driver over Bolt in both directions.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { GraphDB } from '../../src/engine/index.js';
import { decodePropertyValue, encodePropertyValue } from '../../src/engine/storage/index.js';
import { decodeValue, encodeValue } from '../../src/engine/transfer/index.js';
import { CypherDateTime, CypherDuration, LocalDateTime, cypherToString, type CypherValue } from '../../src/engine/values/index.js';
import { startBoltServer, type BoltServer } from '../../src/server/bolt/index.js';

const LAST_SECOND = "localdatetime('+999999999-12-31T23:59:59')";
const FIRST_DAY = "localdatetime('-999999999-01-01')";
/** Seconds from -999999999-01-01T00:00 to +999999999-12-31T23:59:59 (17531639991215h 59m 59s). */
const SPAN_SECONDS = 17_531_639_991_215n * 3600n + 59n * 60n + 59n;

describe('temporal values across ±999,999,999 years', () => {
  let db: GraphDB;
  let server: BoltServer;
  let driver: Driver;

  async function one(query: string, parameters: Record<string, unknown> = {}): Promise<CypherValue> {
    const session = db.session({});
    const result = await session.run(query, parameters as never);
    const { records } = await result.pull(-1);
    return records[0][0]!;
  }

  before(async () => {
    db = await GraphDB.open({ search: false });
    server = await startBoltServer({ port: 0, host: '127.0.0.1', engine: db });
    driver = neo4j.driver(`bolt://127.0.0.1:${server.port}`, neo4j.auth.basic('neo4j', 'any'));
  });
  after(async () => {
    await driver.close();
    await server.close();
    await db.close();
  });

  it('builds and prints the first and last instants exactly', async () => {
    assert.equal(cypherToString(await one(`RETURN ${LAST_SECOND}`)), '+999999999-12-31T23:59:59');
    assert.equal(cypherToString(await one(`RETURN ${FIRST_DAY}`)), '-999999999-01-01T00:00');
    const last = await one("RETURN datetime('+999999999-12-31T23:59:59.999999999Z')");
    assert.equal(cypherToString(last), '+999999999-12-31T23:59:59.999999999Z');
    assert.equal(await one("RETURN datetime('+999999999-12-31T23:59:59Z').epochSeconds"), 31_556_889_832_780_799n);
    assert.equal(
      cypherToString(await one("RETURN localdatetime('+999999999-12-31T23:59:58') + duration('PT1S')")),
      '+999999999-12-31T23:59:59',
    );
  });

  it('measures the whole range in seconds exactly (TCK Temporal10 [10])', async () => {
    const span = await one(`RETURN duration.inSeconds(${FIRST_DAY}, ${LAST_SECOND})`);
    assert.ok(span instanceof CypherDuration);
    assert.equal(span.seconds, SPAN_SECONDS);
    assert.equal(cypherToString(span), 'PT17531639991215H59M59S');
    assert.equal(await one(`RETURN duration.inSeconds(${FIRST_DAY}, ${LAST_SECOND}).seconds`), SPAN_SECONDS);
    assert.equal(cypherToString(await one("RETURN duration('PT17531639991215H59M59S') * 2")), 'PT35063279982431H59M58S');
    assert.equal(await one(`RETURN duration({seconds: ${SPAN_SECONDS}}) = duration('PT17531639991215H59M59S')`), true);
    assert.equal(cypherToString(await one(`RETURN ${FIRST_DAY} + duration('PT17531639991215H59M59S')`)), '+999999999-12-31T23:59:59');
  });

  it('stores them exactly (property codec and a stored property)', async () => {
    const values = [
      new CypherDuration(0, 0, SPAN_SECONDS, 123),
      new CypherDuration(0, 0, -SPAN_SECONDS, 5),
      new LocalDateTime(31_556_889_832_780_799n, 999_999_999),
      new CypherDateTime(-31_557_014_135_596_800n, 1, 3600, null),
      new CypherDateTime(31_556_889_832_780_799n, 0, 7200, 'Europe/Stockholm'),
    ];
    for (const value of values) assert.deepEqual(decodePropertyValue(encodePropertyValue(value)), value);
    await one(`CREATE (:Extreme {d: duration.inSeconds(${FIRST_DAY}, ${LAST_SECOND}), t: ${LAST_SECOND}}) RETURN 0`);
    assert.equal(cypherToString(await one('MATCH (n:Extreme) RETURN n.d')), 'PT17531639991215H59M59S');
    assert.equal(cypherToString(await one('MATCH (n:Extreme) RETURN n.t')), '+999999999-12-31T23:59:59');
  });

  it('round-trips through the typed JSON of export and import', () => {
    for (const value of [new CypherDuration(1, 2, SPAN_SECONDS, 7), new LocalDateTime(-31_557_014_135_596_800n, 0)]) {
      const json = JSON.parse(JSON.stringify(encodeValue(value))) as ReturnType<typeof encodeValue>;
      assert.deepEqual(decodeValue(json), value);
    }
  });

  it('travels over Bolt exactly, both ways, with neo4j-driver', async () => {
    const session = driver.session();
    try {
      const result = await session.run(`RETURN duration.inSeconds(${FIRST_DAY}, ${LAST_SECOND}) AS d, ${LAST_SECOND} AS t`);
      const d = result.records[0].get('d') as InstanceType<typeof neo4j.types.Duration>;
      assert.equal(BigInt(d.seconds.toString()), SPAN_SECONDS);
      const back = await session.run(
        'RETURN $d = duration.inSeconds(' + FIRST_DAY + ', ' + LAST_SECOND + ') AS same, toString($d) AS text',
        {
          d,
        },
      );
      assert.equal(back.records[0].get('same'), true);
      assert.equal(back.records[0].get('text'), 'PT17531639991215H59M59S');
      const t = result.records[0].get('t') as InstanceType<typeof neo4j.types.LocalDateTime>;
      const echoed = await session.run('RETURN toString($t) AS text', { t });
      assert.equal(echoed.records[0].get('text'), '+999999999-12-31T23:59:59');
    } finally {
      await session.close();
    }
  });
});
