/**
 * Regular expressions cannot hang the server (issue #24): catastrophic backtracking patterns answer
 * at once on RE2 while other sessions are served, Java syntax is translated or refused with a
 * ClientError, and the compiled-pattern cache stays bounded under 800k distinct patterns.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import {
  REGEX_CACHE_MAX_BYTES,
  REGEX_CACHE_MAX_ENTRIES,
  regexCacheStats,
  regexFullMatch,
} from '../../src/engine/cypher/functions/user-regex.js';
import { rows } from '../execution/helpers.js';

let db: GraphDB;
before(async () => {
  db = await GraphDB.open({ search: false });
});
after(async () => {
  await db.close();
});

describe('=~ runs on a linear-time engine', () => {
  test("'aaa…!' =~ '(a+)+$' answers at once while another session is served", async () => {
    const started = performance.now();
    const [evil, other] = await Promise.all([
      rows(
        db.session(),
        "RETURN 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' =~ '(a+)+$' AS m, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' =~ '(a|aa)+' AS n",
      ),
      rows(db.session(), 'RETURN 1 AS one'),
    ]);
    const elapsed = performance.now() - started;
    assert.deepEqual(evil, [{ m: false, n: true }]);
    assert.deepEqual(other, [{ one: 1n }]);
    // java.util.regex and V8's backtracking engine take tens of seconds here; a generous bound
    // for a loaded machine.
    assert.ok(elapsed < 5000, `took ${elapsed} ms`);
  });

  test('Java syntax: inline flags, POSIX classes, quoting, full-string match', async () => {
    const out = await rows(
      db.session(),
      "RETURN 'ABC' =~ '(?i)abc' AS i, 'abc' =~ '\\\\p{Alpha}+' AS alpha, '12x' =~ '[\\\\p{Digit}x]+' AS inClass, 'a.b' =~ '\\\\Qa.b\\\\E' AS quoted, 'a\\nb' =~ 'a.b' AS dot, 'a\\nb' =~ '(?s)a.b' AS dotall, 'abc' =~ 'b' AS partial, 'Été' =~ '(?iu)été' AS unicodeCase",
    );
    assert.deepEqual(out, [
      { i: true, alpha: true, inClass: true, quoted: true, dot: false, dotall: true, partial: false, unicodeCase: true },
    ]);
  });

  test('backtracking-only constructs answer a ClientError that names them', async () => {
    const cases: [string, RegExp][] = [
      ['(a)\\\\1', /backreference/],
      ['a++b', /possessive quantifier/],
      ['(?=a)a', /lookaround/],
      ['(?>a)', /atomic group/],
      ['(?x) a', /comments mode/],
      ['(', /missing \)/],
    ];
    for (const [pattern, message] of cases) {
      await assert.rejects(rows(db.session(), `RETURN 'a' =~ '${pattern}' AS m`), (error: { code?: string; message: string }) => {
        assert.match(error.code ?? '', /^Neo\.ClientError\./, pattern);
        assert.match(error.message, /^Invalid Regex: /);
        assert.match(error.message, message);
        return true;
      });
    }
  });

  test('null operands give null, as before', async () => {
    assert.deepEqual(await rows(db.session(), "RETURN null =~ 'a' AS a, 'a' =~ null AS b, 1 =~ 'a' AS c"), [{ a: null, b: null, c: null }]);
  });
});

describe('the compiled-pattern cache is bounded', () => {
  test('800k distinct patterns keep the cache within its count and byte bounds, and RSS bounded', () => {
    const total = Number(process.env.GRAPHDB_REGEX_PATTERNS ?? 800_000);
    const rssBefore = process.memoryUsage().rss;
    let matched = 0;
    for (let i = 0; i < total; i++) if (regexFullMatch('x1', `x${i}`)) matched++;
    const stats = regexCacheStats();
    const grownMiB = (process.memoryUsage().rss - rssBefore) / 1024 ** 2;
    assert.equal(matched, 1);
    assert.ok(stats.entries <= REGEX_CACHE_MAX_ENTRIES, `${stats.entries} entries`);
    assert.ok(stats.bytes <= REGEX_CACHE_MAX_BYTES, `${stats.bytes} bytes`);
    // Before: 800k patterns held 631 MB. The bound leaves room for collector slack.
    assert.ok(grownMiB < 200, `RSS grew by ${grownMiB.toFixed(0)} MiB`);
  });

  test('distinct patterns through Cypher use the same bounded cache', async () => {
    const out = await rows(db.session(), "UNWIND range(1, 20000) AS i WITH i WHERE 'x7' =~ ('x' + toString(i)) RETURN collect(i) AS hits");
    assert.deepEqual(out, [{ hits: [7n] }]);
    assert.ok(regexCacheStats().entries <= REGEX_CACHE_MAX_ENTRIES);
  });
});

describe('dbms.memory.regex_cache.max_size (GRAPHDB_REGEX_CACHE_MAX_SIZE)', () => {
  test('an engine opened with a 256 KiB bound keeps the compiled patterns within it', async () => {
    const bounded = await GraphDB.open({ search: false, regexCacheMaxBytes: 256 * 1024 });
    try {
      const out = await rows(
        bounded.session(),
        "UNWIND range(1, 2000) AS i WITH i WHERE 'y7' =~ ('y' + toString(i)) RETURN collect(i) AS hits",
      );
      assert.deepEqual(out, [{ hits: [7n] }]);
      const stats = bounded.cacheStats().regex;
      assert.equal(stats.maxBytes, 256 * 1024);
      assert.ok(stats.bytes <= 256 * 1024 && stats.entries > 0 && stats.entries < 2000, JSON.stringify(stats));
    } finally {
      await bounded.close();
    }
  });
});
