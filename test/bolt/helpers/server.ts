import { startBoltServer, type BoltServer, type BoltServerOptions } from '../../../src/server/bolt/index.js';
import { createFakeEngine, type FakeEngineLog } from './fake-engine.js';

/** Starts a Bolt server on a free port over the fake engine. */
export async function startFakeServer(
  options: Partial<BoltServerOptions> = {},
): Promise<{ server: BoltServer; log: FakeEngineLog; lines: string[] }> {
  const { engine, log } = createFakeEngine();
  const lines: string[] = [];
  const server = await startBoltServer({
    port: 0,
    host: '127.0.0.1',
    engine,
    logger: {
      debug: (line) => lines.push(line),
      info: () => undefined,
      warn: () => undefined,
      error: (line) => lines.push(`ERROR ${line}`),
    },
    ...options,
  });
  return { server, log, lines };
}
