/**
 * APOC's pure functions against the examples of APOC's documentation: coll, text, map, math,
 * bitwise, scoring, number (incl. exact), convert/json, agg, date/temporal.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { GraphDB, Session } from '../../src/engine/index.js';
import { openDb, plain, run, value } from './helpers.js';

let db: GraphDB;
let session: Session;
before(async () => {
  db = await openDb();
  session = db.session();
});
after(() => db.close());

/** Evaluates `RETURN <expr> AS v` and returns a plain structure of v. */
async function ev(expr: string): Promise<unknown> {
  return plain(await value(session, `RETURN ${expr} AS v`));
}

async function examples(cases: readonly [string, unknown][]): Promise<void> {
  for (const [expr, expected] of cases) assert.deepEqual(await ev(expr), expected, expr);
}

describe('apoc.coll', () => {
  test('documented examples', async () => {
    await examples([
      ['apoc.coll.sum([1, 2, 3, 4, 5])', 15],
      ['apoc.coll.sumLongs([1, 2, 3])', 6n],
      ['apoc.coll.avg([1, 2, 3, 4, 5])', 3],
      ['apoc.coll.max([1, 5, 3])', 5n],
      ['apoc.coll.min([1, 5, 3])', 1n],
      ['apoc.coll.contains([1, 2, 3], 2)', true],
      ['apoc.coll.containsAll([1, 2, 3], [1, 3])', true],
      ['apoc.coll.containsDuplicates([1, 2, 1])', true],
      ['apoc.coll.different([1, 2, 3])', true],
      ['apoc.coll.duplicates([1, 3, 5, 7, 9, 9])', [9n]],
      ['apoc.coll.duplicatesWithCount([1, 3, 5, 7, 9, 9])', [{ item: 9n, count: 2n }]],
      ['apoc.coll.frequencies([1, 3, 5, 7, 9, 9])', [1n, 3n, 5n, 7n, 9n].map((item) => ({ item, count: item === 9n ? 2n : 1n }))],
      ['apoc.coll.frequenciesAsMap([1, 9, 9])', { '1': 1n, '9': 2n }],
      ['apoc.coll.flatten([1, [2, [3]]], true)', [1n, 2n, 3n]],
      ['apoc.coll.flatten([1, [2, [3]]])', [1n, 2n, [3n]]],
      ['apoc.coll.indexOf([1, 2, 3], 3)', 2n],
      ['apoc.coll.insert([1, 3], 1, 2)', [1n, 2n, 3n]],
      ['apoc.coll.insertAll([1, 4], 1, [2, 3])', [1n, 2n, 3n, 4n]],
      ['apoc.coll.remove([1, 2, 3, 4], 1, 2)', [1n, 4n]],
      ['apoc.coll.set([1, 2, 3], 0, 9)', [9n, 2n, 3n]],
      ['apoc.coll.intersection([1, 2, 3, 4], [3, 4, 5])', [3n, 4n]],
      ['apoc.coll.subtract([1, 2, 3, 4, 5, 6, 6], [3, 4, 5])', [1n, 2n, 6n]],
      ['apoc.coll.removeAll([1, 2, 3, 3], [3])', [1n, 2n]],
      ['apoc.coll.union([1, 2, 3, 4, 5], [3, 4, 5, 6, 7])', [1n, 2n, 3n, 4n, 5n, 6n, 7n]],
      ['apoc.coll.unionAll([1, 2], [2, 3])', [1n, 2n, 2n, 3n]],
      ['apoc.coll.disjunction([1, 2, 3, 4, 5], [3, 4, 5])', [1n, 2n]],
      ['apoc.coll.toSet([1, 1, 2])', [1n, 2n]],
      ['apoc.coll.isEqualCollection([1, 2, 2], [2, 1, 2])', true],
      ['apoc.coll.dropDuplicateNeighbors([1, 1, 2, 1])', [1n, 2n, 1n]],
      ['apoc.coll.fill("abc", 2)', ['abc', 'abc']],
      ['apoc.coll.occurrences([1, 3, 5, 7, 9, 9], 9)', 2n],
      [
        'apoc.coll.pairs([1, 2, 3])',
        [
          [1n, 2n],
          [2n, 3n],
          [3n, null],
        ],
      ],
      [
        'apoc.coll.pairsMin([1, 2, 3])',
        [
          [1n, 2n],
          [2n, 3n],
        ],
      ],
      [
        'apoc.coll.pairWithOffset([1, 2, 3, 4], 2)',
        [
          [1n, 3n],
          [2n, 4n],
          [3n, null],
          [4n, null],
        ],
      ],
      ['apoc.coll.partition([1, 2, 3, 4, 5], 2)', [[1n, 2n], [3n, 4n], [5n]]],
      [
        'apoc.coll.zip([1, 2, 3], ["a", "b", "c"])',
        [
          [1n, 'a'],
          [2n, 'b'],
          [3n, 'c'],
        ],
      ],
      ['apoc.coll.runningTotal([1, 2, 3.5])', [1n, 3n, 6.5]],
      [
        'apoc.coll.combinations([1, 2, 3], 2, 3)',
        [
          [1n, 2n],
          [1n, 3n],
          [2n, 3n],
          [1n, 2n, 3n],
        ],
      ],
      ['apoc.coll.sort([3, 1, 2])', [1n, 2n, 3n]],
      ['apoc.coll.sortText(["b", "a", "C"])', ['a', 'b', 'C']],
      [
        "apoc.coll.sortMaps([{name: 'Lucy'}, {name: 'Adam'}, {name: 'Zed'}], 'name')",
        [{ name: 'Zed' }, { name: 'Lucy' }, { name: 'Adam' }],
      ],
      ["apoc.coll.sortMaps([{name: 'Lucy'}, {name: 'Adam'}], '^name')", [{ name: 'Adam' }, { name: 'Lucy' }]],
      [
        "apoc.coll.sortMulti([{a: 1, b: 2}, {a: 1, b: 3}, {a: 2, b: 1}], ['^a', 'b'])",
        [
          { a: 1n, b: 3n },
          { a: 1n, b: 2n },
          { a: 2n, b: 1n },
        ],
      ],
      ['apoc.coll.stdev([10, 12, 23, 23, 16, 23, 21, 16])', 5.237229365663817],
      ['apoc.coll.stdev([10, 12, 23, 23, 16, 23, 21, 16], false)', 4.898979485566356],
      ['apoc.coll.containsSorted([1, 4, 5], 4)', true],
      ['size(apoc.coll.shuffle([1, 2, 3]))', 3n],
      ['size(apoc.coll.randomItems([1, 2, 3], 2))', 2n],
    ]);
    const rows = await run(session, 'CALL apoc.coll.zipToRows([1, 2], ["a", "b"]) YIELD value RETURN value');
    assert.deepEqual(
      rows.map((r) => r.value),
      [
        [1n, 'a'],
        [2n, 'b'],
      ],
    );
    const split = await run(session, 'CALL apoc.coll.split([1, 3, 5, 7, 9], 5) YIELD value RETURN value');
    assert.deepEqual(
      split.map((r) => r.value),
      [
        [1n, 3n],
        [7n, 9n],
      ],
    );
    const elements = await run(session, "CALL apoc.coll.elements([1, 'a', 2.5, true]) YIELD _1i, _2s, _3f, _4b, elements RETURN *");
    assert.deepEqual(elements, [{ _1i: 1n, _2s: 'a', _3f: 2.5, _4b: true, elements: 4n }]);
  });
});

describe('apoc.text', () => {
  test('documented examples', async () => {
    await examples([
      ["apoc.text.camelCase('FOO_BAR')", 'fooBar'],
      ["apoc.text.upperCamelCase('foo bar')", 'FooBar'],
      ["apoc.text.snakeCase('test Snake Case')", 'test-snake-case'],
      ["apoc.text.toUpperCase('test upper case')", 'TEST_UPPER_CASE'],
      ["apoc.text.capitalize('neo4j')", 'Neo4j'],
      ["apoc.text.capitalizeAll('graph database name')", 'Graph Database Name'],
      ["apoc.text.decapitalize('Graph Database')", 'graph Database'],
      ["apoc.text.swapCase('Neo4j')", 'nEO4J'],
      ["apoc.text.clean('Neo4j ')", 'neo4j'],
      ["apoc.text.compareCleaned('Neo4j', 'neo4j')", true],
      ["apoc.text.distance('Levenshtein', 'Levenstein')", 1n],
      ["apoc.text.levenshteinSimilarity('Neo4j', 'Neo4j Aura')", 0.5],
      ["apoc.text.hammingDistance('Neo4j', 'Neo4J')", 1n],
      ["apoc.text.jaroWinklerDistance('Neo4j', 'Neo4j Aura')", 0.9],
      ["apoc.text.sorensenDiceSimilarity('belly', 'jolly')", 0.5],
      ["apoc.text.fuzzyMatch('The', 'the')", false],
      ["apoc.text.phonetic('Hello')", 'H400'],
      ["apoc.text.lpad('ab', 4, '0')", '00ab'],
      ["apoc.text.rpad('ab', 4, '0')", 'ab00'],
      ["apoc.text.repeat('Neo', 3)", 'NeoNeoNeo'],
      ["apoc.text.join(['Hello', 'World'], ' ')", 'Hello World'],
      ["apoc.text.format('Hello %s, you are %d', ['Tom', 42])", 'Hello Tom, you are 42'],
      ["apoc.text.indexOf('Hello World!', 'World')", 6n],
      ["apoc.text.indexesOf('Hello World Wo!', 'Wo')", [6n, 12n]],
      ["apoc.text.replace('Hello World!', '[^a-zA-Z]', '')", 'HelloWorld'],
      ["apoc.text.split('Hello   World', ' +')", ['Hello', 'World']],
      [
        "apoc.text.regexGroups('abc <link xxx1>yyy1</link> def <link xxx2>yyy2</link>', '<link (\\\\w+)>(\\\\w+)</link>')",
        [
          ['<link xxx1>yyy1</link>', 'xxx1', 'yyy1'],
          ['<link xxx2>yyy2</link>', 'xxx2', 'yyy2'],
        ],
      ],
      ["apoc.text.slug('Hello World')", 'Hello-World'],
      ["apoc.text.urlencode('ab c&d')", 'ab+c%26d'],
      ["apoc.text.urldecode('ab+c%26d')", 'ab c&d'],
      ["apoc.text.base64Encode('neo4j')", 'bmVvNGo='],
      ["apoc.text.base64Decode('bmVvNGo=')", 'neo4j'],
      ["apoc.text.byteCount('Neo4j')", 5n],
      ["apoc.text.charAt('Neo4j', 1)", 101n],
      ['apoc.text.code(65)', 'A'],
      ['apoc.text.hexValue(65535)', 'FFFF'],
      ["apoc.text.hexCharAt('Neo4j', 0)", '004E'],
      ["apoc.text.toCypher({name: 'Neo', age: 12})", "{name: 'Neo', age: 12}"],
      ["size(apoc.text.random(10, 'A-Z'))", 10n],
    ]);
    const delta = await run(
      session,
      "CALL apoc.text.phoneticDelta('Hello Mr Rabbit', 'Hello Mr Ribbit') YIELD phonetic1, phonetic2, delta RETURN *",
    );
    assert.deepEqual(delta, [{ phonetic1: 'H456', phonetic2: 'H456', delta: 4n }]);
  });
});

describe('apoc.map, math, bitwise, scoring, number', () => {
  test('documented examples', async () => {
    await examples([
      ["apoc.map.fromLists(['a', 'b'], [1, 2])", { a: 1n, b: 2n }],
      ["apoc.map.fromPairs([['a', 1], ['b', 2]])", { a: 1n, b: 2n }],
      ["apoc.map.fromValues(['a', 1, 'b', 2])", { a: 1n, b: 2n }],
      ['apoc.map.merge({a: 1}, {b: 2})', { a: 1n, b: 2n }],
      ['apoc.map.mergeList([{a: 1}, {b: 2}, {a: 3}])', { a: 3n, b: 2n }],
      ["apoc.map.get({a: 1}, 'b', 42)", 42n],
      ["apoc.map.mget({a: 1, b: 2}, ['a', 'b'])", [1n, 2n]],
      ["apoc.map.submap({a: 1, b: 2, c: 3}, ['a', 'c'])", { a: 1n, c: 3n }],
      ["apoc.map.values({a: 1, b: 2}, ['b', 'x'], true)", [2n, null]],
      ["apoc.map.setKey({a: 1}, 'b', 2)", { a: 1n, b: 2n }],
      ["apoc.map.setLists({a: 1}, ['b'], [2])", { a: 1n, b: 2n }],
      ["apoc.map.setPairs({a: 1}, [['b', 2]])", { a: 1n, b: 2n }],
      ["apoc.map.removeKeys({a: 1, b: {a: 2, c: 3}}, ['a'], {recursive: true})", { b: { c: 3n } }],
      ["apoc.map.clean({a: 1, b: null, c: ''}, ['a'], [''])", {}],
      ['apoc.map.flatten({a: {b: 1, c: {d: 2}}})', { 'a.b': 1n, 'a.c.d': 2n }],
      ['apoc.map.unflatten({`a.b`: 1, `a.c`: 2})', { a: { b: 1n, c: 2n } }],
      [
        'apoc.map.sortedProperties({b: 1, a: 2})',
        [
          ['a', 2n],
          ['b', 1n],
        ],
      ],
      ["apoc.map.groupBy([{id: 1, n: 'a'}, {id: 2, n: 'b'}], 'id')", { '1': { id: 1n, n: 'a' }, '2': { id: 2n, n: 'b' } }],
      [
        "apoc.map.groupByMulti([{k: 'x', n: 1}, {k: 'x', n: 2}], 'k')",
        {
          x: [
            { k: 'x', n: 1n },
            { k: 'x', n: 2n },
          ],
        },
      ],
      ["apoc.map.updateTree({id: 1, c: [{id: 2}]}, 'id', [[2, {x: true}]])", { id: 1n, c: [{ id: 2n, x: true }] }],
      ['apoc.math.maxInt()', 2147483647n],
      ['apoc.math.minLong()', -9223372036854775808n],
      ['apoc.math.sigmoid(2.5)', 0.9241418199787566],
      ['round(apoc.math.sigmoidPrime(2.5), 12)', 0.070103716545],
      ['apoc.math.tanh(1.5)', Math.tanh(1.5)],
      ["apoc.bitwise.op(60, '|', 13)", 61n],
      ["apoc.bitwise.op(60, 'XOR', 13)", 49n],
      ["apoc.bitwise.op(60, '>>>', 2)", 15n],
      ['apoc.scoring.existence(5, true)', 5],
      ['apoc.scoring.pareto(10, 20, 100, 33)', 100 * (1 - Math.exp((-Math.log(5) / 20) * 33))],
      ['apoc.number.format(12345.67)', '12,345.67'],
      ["apoc.number.format(12345, '#,##0.00;(#,##0.00)', 'it')", '12.345,00'],
      ["apoc.number.parseInt('12,345')", 12345n],
      ["apoc.number.parseFloat('12.345,67', '', 'it')", 12345.67],
      ['apoc.number.arabicToRoman(1984)', 'MCMLXXXIV'],
      ["apoc.number.romanToArabic('MCMXCIV')", 1994n],
      ["apoc.number.exact.add('1213669989', '1238126387')", '2451796376'],
      ["apoc.number.exact.sub('1238126387', '1213669989')", '24456398'],
      ["apoc.number.exact.mul('550058444', '662557', 15, 'HALF_DOWN')", '364445072481308'],
      ["apoc.number.exact.div('5555.5555', '5', 2, 'HALF_DOWN')", '1.1E+3'],
      ["apoc.number.exact.toInteger('504238974', 5, 'HALF_DOWN')", 504240000n],
      ["apoc.number.exact.toFloat('50423.1656', 10, null)", 50423.1656],
    ]);
    await assert.rejects(run(session, "RETURN apoc.map.get({a: 1}, 'b') AS v"), /Key b is not of one of the existing keys \[a\]/);
  });
});

describe('apoc.convert, apoc.json, apoc.agg', () => {
  test('JSON and conversions', async () => {
    await examples([
      ["apoc.convert.toJson({a: [1, 2.5, 'x'], b: null})", '{"a":[1,2.5,"x"],"b":null}'],
      ['apoc.convert.fromJsonMap(\'{"a": {"b": [1, 2]}}\', \'$.a\')', { b: [1n, 2n] }],
      ["apoc.convert.fromJsonList('[1, 9223372036854775807]')", [1n, 9223372036854775807n]],
      ['apoc.json.path(\'{"a": [{"b": 1}, {"b": 2}]}\', \'$.a[*].b\')', [1n, 2n]],
      ['apoc.convert.toSortedJsonMap({b: 1, A: 2})', '{"A":2,"b":1}'],
      ["apoc.convert.toList('a')", ['a']],
      ['apoc.convert.toSet([1, 1, 2])', [1n, 2n]],
      ['apoc.convert.toMap({a: 1})', { a: 1n }],
    ]);
    const node = await value(
      session,
      "CREATE (n:J {data: '{\"x\": {\"y\": 3}}'}) RETURN apoc.convert.getJsonProperty(n, 'data', '$.x.y') AS v",
    );
    assert.equal(node, 3n);
    const json = await value(session, "CREATE (n:J2) WITH n CALL apoc.convert.setJsonProperty(n, 'doc', {a: [1, 2]}) RETURN n.doc AS v");
    assert.equal(json, '{"a":[1,2]}');
    const tree = plain(
      await value(
        session,
        "CREATE p = (:T {name: 'A'})-[:KNOWS {since: 1}]->(:T {name: 'B'}) WITH collect(p) AS ps CALL apoc.convert.toTree(ps) YIELD value RETURN value",
      ),
    ) as Record<string, unknown>;
    assert.equal(tree.name, 'A');
    assert.equal(tree._type, 'T');
    const child = (tree.knows as Record<string, unknown>[])[0];
    assert.equal(child.name, 'B');
    assert.equal(child['knows.since'], 1n);
  });
  test('aggregations', async () => {
    const row = (
      await run(
        session,
        'UNWIND [1, 2, 3, 4, null] AS x RETURN apoc.agg.first(x) AS first, apoc.agg.last(x) AS last, apoc.agg.nth(x, -1) AS nth, apoc.agg.median(x) AS median, apoc.agg.product(x) AS product, apoc.agg.slice(x, 1, 3) AS slice, apoc.agg.maxItems(x * 10, x % 2) AS maxItems, apoc.agg.minItems(x, x) AS minItems',
      )
    )[0];
    assert.deepEqual(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plain(v)])), {
      first: 1n,
      last: 4n,
      nth: 4n,
      median: 2.5,
      product: 24n,
      slice: [2n, 3n],
      maxItems: { items: [10n, 30n], value: 1n },
      minItems: { items: [1n], value: 1n },
    });
    const stats = plain(await value(session, 'UNWIND range(1, 100) AS x RETURN apoc.agg.statistics(x) AS v')) as Record<string, unknown>;
    assert.deepEqual([stats.min, stats.max, stats.total, stats.mean, stats['0.5'], stats['0.99']], [1n, 100n, 100n, 50.5, 50n, 99n]);
    assert.deepEqual(await ev('[x IN range(1, 3) | x]'), [1n, 2n, 3n]);
    const graph = plain(await value(session, 'CREATE p = (:G)-[:R]->(:G) RETURN size(apoc.agg.graph(p).nodes) AS v'));
    assert.equal(graph, 2n);
  });
});

describe('apoc.date and apoc.temporal', () => {
  test('documented examples', async () => {
    await examples([
      ["apoc.date.format(1506244476000, 'ms', 'yyyy-MM-dd')", '2017-09-24'],
      ["apoc.date.format(1506244476, 's', 'yyyy-MM-dd HH:mm:ss', 'Europe/Berlin')", '2017-09-24 11:14:36'],
      ["apoc.date.parse('2015/03/25 03:15:59', 's', 'yyyy/MM/dd HH:mm:ss')", 1427253359n],
      ["apoc.date.convertFormat('2020-11-04', 'date', 'basic_date')", '20201104'],
      [
        "apoc.date.convertFormat(toString(datetime('2020-01-02T10:11:12.5Z')), 'iso_zoned_date_time', 'iso_offset_date_time')",
        '2020-01-02T10:11:12.5Z',
      ],
      [
        "apoc.date.convertFormat('2020-01-02T10:11:12+01:00[Europe/Paris]', 'iso_zoned_date_time', 'iso_offset_date_time')",
        '2020-01-02T10:11:12+01:00',
      ],
      ['apoc.date.toISO8601(1506244476000)', '2017-09-24T09:14:36.000Z'],
      ["apoc.date.fromISO8601('2017-09-24T09:14:36.000Z')", 1506244476000n],
      ["apoc.date.add(12345, 'ms', -365, 'd')", -31535987655n],
      ["apoc.date.convert(1000000, 'ms', 's')", 1000n],
      ["apoc.date.field(12345678901, 'years')", 1970n],
      [
        "apoc.date.fields('2015-01-02 03:04:05 EET', 'yyyy-MM-dd HH:mm:ss zzz')",
        { weekdays: 5n, years: 2015n, seconds: 5n, minutes: 4n, hours: 3n, months: 1n, days: 2n, zoneid: 'EET' },
      ],
      ["apoc.temporal.format(date('2019-06-04'), 'yyyy-MM-dd')", '2019-06-04'],
      ["apoc.temporal.format(datetime('2018-12-10T12:34:56.1234Z'), 'yyyy-MM-dd HH:mm:ss.SSSS')", '2018-12-10 12:34:56.1234'],
      ["apoc.temporal.format(localtime('12:34:56'), 'HH:mm')", '12:34'],
      ["apoc.temporal.format(date('2019-06-04'), 'ISO_LOCAL_DATE')", '2019-06-04'],
      ["apoc.temporal.formatDuration(duration({hours: 2, minutes: 30}), 'HH:mm')", '02:30'],
      [
        "toString(apoc.temporal.toZonedTemporal('2012-12-23 23:59:59', 'yyyy-MM-dd HH:mm:ss', 'Asia/Tokyo'))",
        '2012-12-23T23:59:59+09:00[Asia/Tokyo]',
      ],
    ]);
  });
});
