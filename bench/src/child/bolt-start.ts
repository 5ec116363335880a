/**
 * Child process of M1b: opens graphdb on an empty directory, serves it over Bolt on an ephemeral
 * port and prints `{"port": N}`; the parent times spawn → first `RETURN 1` answer, then kills it.
 * Arguments: <dir> <src|dist>.
 */
import { probeGraphdb, type EngineSource } from '../graphdb/probe.js';

const [dir, source] = process.argv.slice(2);
const graphdb = await probeGraphdb((source ?? 'src') as EngineSource);
if (typeof graphdb.bolt === 'string') {
  console.log(JSON.stringify({ pending: graphdb.bolt }));
} else {
  const server = await graphdb.bolt(dir);
  console.log(JSON.stringify({ port: server.port }));
  process.on('SIGTERM', () => {
    void server.stop().then(() => process.exit(0));
  });
}
