import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJson, JsonSyntaxError } from '../../src/server/http/json/parse-json.js';
import { jsonToParameters } from '../../src/server/http/json/values-in.js';
import { graphJson, metaJson, rowJson } from '../../src/server/http/json/values-out.js';
import { CypherDate, CypherDuration, CypherPoint, Node, Path, Relationship, type CypherValue } from '../../src/engine/values/types.js';

describe('parseJson', () => {
  it('keeps integer literals as exact bigints and other numbers as floats', () => {
    const value = parseJson('{"big": 9223372036854775807, "neg": -9223372036854775808, "f": 1.0, "e": 1e3, "small": 42}') as Record<
      string,
      unknown
    >;
    assert.equal(value.big, 9223372036854775807n);
    assert.equal(value.neg, -9223372036854775808n);
    assert.equal(value.f, 1);
    assert.equal(typeof value.f, 'number');
    assert.equal(value.e, 1000);
    assert.equal(typeof value.e, 'number');
    assert.equal(value.small, 42n);
  });

  it('reads integers beyond 64 bits as floats', () => {
    assert.equal(typeof parseJson('92233720368547758080'), 'number');
  });

  it('parses strings with escapes, arrays, nesting and literals', () => {
    assert.deepEqual(parseJson('["a\\"b\\u00e9\\n", true, false, null, [], {}]'), ['a"bé\n', true, false, null, [], Object.create(null)]);
  });

  it('treats __proto__ as an ordinary key', () => {
    const value = parseJson('{"__proto__": {"polluted": 1}}') as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(value), null);
    assert.deepEqual(Object.keys(value), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('rejects malformed documents with a position', () => {
    for (const text of ['{', '{"a" 1}', '[1,]', 'tru', '"abc', '{"a":1} x', '01', '{a:1}']) {
      assert.throws(() => parseJson(text), JsonSyntaxError, text);
    }
  });

  it('converts parameters to Cypher maps', () => {
    const parameters = jsonToParameters(parseJson('{"n": 1, "m": {"k": [1, 2.5]}}'));
    assert.equal(parameters.get('n'), 1n);
    const nested = parameters.get('m') as ReadonlyMap<string, CypherValue>;
    assert.ok(nested instanceof Map);
    assert.deepEqual(nested.get('k'), [1n, 2.5]);
  });
});

describe('row, meta and graph JSON', () => {
  const alice = new Node(
    1n,
    '4:db:1',
    ['Person'],
    new Map<string, CypherValue>([
      ['name', 'Alice'],
      ['age', 9007199254740993n],
    ]),
  );
  const bob = new Node(2n, '4:db:2', ['Person'], new Map<string, CypherValue>([['name', 'Bob']]));
  const knows = new Relationship(7n, '5:db:7', 'KNOWS', 1n, 2n, '4:db:1', '4:db:2', new Map<string, CypherValue>([['since', 2020n]]));

  it('writes integers exactly and floats with a decimal point', () => {
    assert.equal(rowJson(9223372036854775807n), '9223372036854775807');
    assert.equal(rowJson(1), '1.0');
    assert.equal(rowJson(0.5), '0.5');
    assert.equal(rowJson(NaN), '"NaN"');
    assert.equal(rowJson(-Infinity), '"-Infinity"');
    assert.equal(rowJson('a"b'), '"a\\"b"');
    assert.equal(rowJson([1n, null, true]), '[1,null,true]');
    assert.equal(rowJson(new Map<string, CypherValue>([['k', 2n]])), '{"k":2}');
    assert.equal(rowJson(new Uint8Array([1, 255])), '[1,255]');
  });

  it('writes entities as property maps and temporals as strings', () => {
    assert.equal(rowJson(alice), '{"name":"Alice","age":9007199254740993}');
    assert.equal(rowJson(new Path([alice, bob], [knows])), '[{"name":"Alice","age":9007199254740993},{"since":2020},{"name":"Bob"}]');
    assert.equal(rowJson(new CypherDate(0)), '"1970-01-01"');
    assert.equal(rowJson(new CypherDuration(14, 0, 0n, 0)), '"P1Y2M"');
    const point = JSON.parse(rowJson(new CypherPoint(7203, 1, 2))) as {
      type: string;
      coordinates: number[];
      crs: { srid: number; name: string };
    };
    assert.deepEqual([point.type, point.coordinates, point.crs.srid, point.crs.name], ['Point', [1, 2], 7203, 'cartesian']);
  });

  it('describes entities and temporals in meta', () => {
    assert.deepEqual(JSON.parse(metaJson(alice)), { id: 1, elementId: '4:db:1', type: 'node', deleted: false });
    assert.deepEqual(JSON.parse(metaJson(knows)), { id: 7, elementId: '5:db:7', type: 'relationship', deleted: false });
    assert.equal(metaJson(42n), 'null');
    assert.deepEqual(JSON.parse(metaJson(new CypherDate(1))), { type: 'date' });
    assert.equal(JSON.parse(metaJson(new Path([alice, bob], [knows]))).length, 3);
  });

  it('collects distinct nodes and relationships for the graph format', () => {
    const graph = JSON.parse(graphJson([alice, [bob, alice], new Path([alice, bob], [knows])])) as {
      nodes: { id: string; labels: string[] }[];
      relationships: { id: string; type: string; startNode: string; endNode: string }[];
    };
    assert.deepEqual(graph.nodes.map((n) => n.id).sort(), ['1', '2']);
    assert.deepEqual(graph.relationships, [
      { id: '7', elementId: '5:db:7', type: 'KNOWS', startNode: '1', endNode: '2', properties: { since: 2020 } },
    ]);
  });
});
