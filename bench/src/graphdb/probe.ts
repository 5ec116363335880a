/**
 * Finds out which graphdb features exist in this checkout, so that workloads whose feature has not
 * landed are reported as pending (with the reason) instead of being faked. The engine is imported
 * from `src/` through tsx, or from `dist/` with `--engine dist` (after `npm run build`).
 */
import type { GraphdbAvailability } from '../context.js';
import { engineModule, type EngineSource } from './engine-module.js';
import { openEmbedded, openGraphDB, serveBolt, type StartBolt } from './embedded.js';
import { probeSearchComponents } from './search-component.js';
import { probeCypherSearch } from './search-cypher.js';
import { serverStarter } from './server.js';

export { engineModule, type EngineSource } from './engine-module.js';

async function importIfPresent(source: EngineSource, path: string): Promise<Record<string, unknown> | string> {
  const url = engineModule(source, path);
  if (!url) return `${source}/${path} does not exist yet`;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (e) {
    return `${source}/${path} failed to load: ${(e as Error).message.split('\n')[0]}`;
  }
}

/** Probes the checkout. */
export async function probeGraphdb(source: EngineSource): Promise<GraphdbAvailability> {
  const engine = await importIfPresent(source, 'engine/index');
  const boltModule = await importIfPresent(source, 'server/bolt/index');
  const startBolt =
    typeof boltModule !== 'string' && typeof boltModule['startBoltServer'] === 'function'
      ? (boltModule['startBoltServer'] as StartBolt)
      : null;
  let embedded: GraphdbAvailability['embedded'];
  if (typeof engine === 'string') embedded = `engine facade not landed: ${engine}`;
  else if (typeof engine['GraphDB'] !== 'function') embedded = 'engine facade not landed: src/engine/index.ts exports no GraphDB';
  else embedded = (dir: string) => openEmbedded(engine, dir, startBolt);

  const parser = await importIfPresent(source, 'engine/cypher/parser/index');
  const parse: GraphdbAvailability['parse'] =
    typeof parser === 'string'
      ? `parser not landed: ${parser}`
      : typeof parser['parse'] === 'function'
        ? (parser['parse'] as (text: string) => unknown)
        : 'parser not landed: engine/cypher/parser/index exports no parse()';

  let bolt: GraphdbAvailability['bolt'];
  if (typeof embedded === 'string') bolt = `Bolt needs the engine facade: ${embedded}`;
  else if (!startBolt)
    bolt = `Bolt server (issue 6) not landed: ${typeof boltModule === 'string' ? boltModule : 'no startBoltServer export'}`;
  else {
    const engineModuleLoaded = engine as Record<string, unknown>;
    bolt = async (dir: string) => {
      const db = await openGraphDB(engineModuleLoaded, dir);
      const served = await serveBolt(startBolt, db);
      return {
        port: served.port,
        stop: async () => {
          await served.stop();
          await db.close();
        },
      };
    };
  }
  const http = await probeHttp(source, engine);
  return {
    embedded,
    parse,
    bolt,
    http,
    search: typeof embedded === 'string' ? `search through Cypher needs the engine facade: ${embedded}` : probeCypherSearch(source),
    searchComponents: await probeSearchComponents(source),
  };
}

async function probeHttp(source: EngineSource, engine: Record<string, unknown> | string): Promise<GraphdbAvailability['http']> {
  if (typeof engine === 'string') return `HTTP server needs the engine facade: ${engine}`;
  const configModule = await importIfPresent(source, 'engine/config/index');
  const serverModule = await importIfPresent(source, 'server/index');
  if (typeof configModule === 'string') return `configuration not landed: ${configModule}`;
  if (typeof serverModule === 'string') return `HTTP server (issue 7) not landed: ${serverModule}`;
  return serverStarter(configModule, serverModule);
}
