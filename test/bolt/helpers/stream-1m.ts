/**
 * The 1M-row check of issue 6, run by hand (too slow for CI):
 *
 *   node --expose-gc --import tsx test/bolt/helpers/stream-1m.ts [rows] [--slow]
 *
 * Streams `UNWIND range(1, rows)` through the Bolt server (real engine) to neo4j-driver and
 * samples the process's heap while it does. With `--slow` the client sleeps between batches, so
 * the server has to hold back (backpressure) rather than buffer the result. Exits non-zero when
 * the heap grows by more than 100 MiB over the run.
 */
import neo4j from 'neo4j-driver';
import { GraphDB } from '../../../src/engine/index.js';
import { startBoltServer } from '../../../src/server/bolt/index.js';

const rows = Number(process.argv[2] ?? 1_000_000);
const slow = process.argv.includes('--slow');
const db = await GraphDB.open();
const server = await startBoltServer({ port: 0, host: '127.0.0.1', engine: db });
const driver = neo4j.driver(`bolt://127.0.0.1:${server.port}`, neo4j.auth.basic('neo4j', 'x'));
const session = driver.session({ fetchSize: 5000 });
/** Live heap in MiB (collected first when run with --expose-gc). */
const heap = (): number => {
  global.gc?.();
  return process.memoryUsage().heapUsed / 1048576;
};
const start = performance.now();
const baseline = heap();
let peak = baseline;
let count = 0;
for await (const record of session.run("UNWIND range(1, $n) AS i RETURN i, 'row ' + toString(i) AS s", { n: neo4j.int(rows) })) {
  count++;
  void record;
  if (count % 50_000 === 0) {
    peak = Math.max(peak, heap());
    if (slow) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const seconds = (performance.now() - start) / 1000;
await session.close();
await driver.close();
await server.close();
await db.close();
const growth = peak - baseline;
console.log(
  `${count} rows in ${seconds.toFixed(1)} s (${Math.round(count / seconds)} rows/s); heap ${baseline.toFixed(0)} MiB -> peak ${peak.toFixed(0)} MiB (+${growth.toFixed(0)} MiB); rss ${(process.memoryUsage().rss / 1048576).toFixed(0)} MiB`,
);
process.exit(count === rows && growth < 100 ? 0 : 1);
