/**
 * `graphdb mcp`: the MCP server over stdio, the one-line setup of an agent's MCP configuration.
 * Embedded (`--data-dir`): the process opens the data directory itself (search, embeddings and
 * memory decay as configured) and acts with full rights. Connected (`--connect bolt://...`): the
 * tools run over Bolt with the given credentials, so the server's RBAC applies; search is then a
 * text match (the hybrid search services are in the server process). stdout carries the
 * protocol only: logs go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { GraphdbConfig } from '../../engine/config/index.js';
import { allowedTools, type MemoryToolHost } from '../../engine/index.js';
import { openEngine } from '../engine-adapter.js';
import { createLogger } from '../logger.js';
import { createMcpServer } from './mcp-server.js';
import { remoteRunner, type RemoteConnection } from './remote-runner.js';

/** Options of `runStdioMcpServer`. */
export interface StdioMcpOptions {
  readonly config: GraphdbConfig;
  /** Database the tools work in; default `database.default_database`. */
  readonly database?: string;
  /** Work against a running server instead of opening the data directory. */
  readonly connect?: Omit<RemoteConnection, 'database'>;
  readonly version: string;
}

/** Serves MCP on stdin/stdout until stdin closes; resolves after everything is closed. */
export async function runStdioMcpServer(options: StdioMcpOptions): Promise<void> {
  const { config } = options;
  const logger = createLogger(config.logging.level, process.stderr);
  const database = options.database ?? config.database.default_database;
  let host: MemoryToolHost;
  let release: () => Promise<void>;
  /** The engine's background search-index builds, started once the transport is connected. */
  let startSearchBuilds = (): void => {};
  if (options.connect !== undefined) {
    const { runner, driver } = remoteRunner({ ...options.connect, database });
    await driver.verifyConnectivity();
    host = {
      database,
      cypher: runner,
      search: () => null,
      now: Date.now,
      decayWeight: config.memory_decay.enabled ? config.memory_decay.search_weight : 0,
    };
    release = () => driver.close();
  } else {
    const engine = await openEngine(config, logger);
    startSearchBuilds = () => engine.graphdb.searchServices?.startBuilds();
    host = engine.graphdb.memoryToolHost({ database });
    release = () => engine.close();
  }
  const server = createMcpServer({
    host,
    tools: allowedTools(config.assistant.mcp_tools),
    maxResultChars: config.assistant.max_tool_result_chars,
    version: options.version,
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  startSearchBuilds();
  logger.info(
    { database, mode: options.connect === undefined ? 'embedded' : `connected to ${options.connect.url}` },
    'MCP server ready on stdio',
  );
  await closed;
  await server.close();
  await release();
}
