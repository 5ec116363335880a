/**
 * Starts the real engine on a temporary data directory behind the Bolt server, for running
 * external Bolt clients (the TCK runner, benchmarks) by hand:
 *
 *   node --import tsx test/bolt/helpers/launch-server.ts [port]
 *
 * Prints `bolt://127.0.0.1:<port>` and serves until SIGINT/SIGTERM.
 */
import { GraphDB } from '../../../src/engine/index.js';
import { startBoltServer } from '../../../src/server/bolt/index.js';

const db = await GraphDB.open();
const server = await startBoltServer({ port: Number(process.argv[2] ?? 0), host: '127.0.0.1', engine: db });
console.log(`bolt://127.0.0.1:${server.port}`);

const stop = async (): Promise<void> => {
  await server.close();
  await db.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
