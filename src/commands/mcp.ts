import { Command, Flags } from '@oclif/core';
import { ConfigError, loadConfig } from '../engine/config/index.js';
import { runStdioMcpServer } from '../server/mcp/stdio.js';

/** `graphdb mcp`: the MCP server (memory tools, resources, prompts) over stdio. */
export default class Mcp extends Command {
  static override summary = 'Serve graphdb memory to an AI agent over MCP (stdio).';

  static override description = [
    'Speaks the Model Context Protocol on stdin/stdout: the tools store, recall, discover, link, tasks, forget',
    'and cypher (read-only), the resources graphdb://schema, graphdb://memories/recent and graphdb://memory/{id},',
    'and prompts. Embedded by default: opens the data directory itself (do not run a server on the same directory).',
    "With --connect it works against a running server over Bolt with the given credentials (the server's RBAC",
    'applies). GRAPHDB_ASSISTANT_MCP_TOOLS limits the tools offered. Logs go to stderr. See docs/ai-memory.md.',
  ].join(' ');

  static override examples = [
    '<%= config.bin %> <%= command.id %> --data-dir ~/.graphdb/memory',
    '<%= config.bin %> <%= command.id %> --connect bolt://localhost:7687 -u alice -p secret',
  ];

  static override flags = {
    'data-dir': Flags.string({ description: 'data directory (default ./data; env GRAPHDB_DATA_DIR)' }),
    database: Flags.string({ char: 'd', description: 'database the tools work in (default: the default database)' }),
    config: Flags.string({ description: 'YAML config file (otherwise GRAPHDB_CONFIG or discovery)' }),
    connect: Flags.string({ description: 'Bolt URL of a running server (bolt://host:7687) instead of opening the data directory' }),
    username: Flags.string({ char: 'u', description: 'user name for --connect', env: 'GRAPHDB_USERNAME' }),
    password: Flags.string({ char: 'p', description: 'password for --connect (env GRAPHDB_PASSWORD)', env: 'GRAPHDB_PASSWORD' }),
    'embedding-enabled': Flags.boolean({ description: 'embedded: embed memories in the background (env GRAPHDB_EMBEDDING_ENABLED)' }),
    'log-level': Flags.string({
      description: 'log level on stderr (default warn)',
      options: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    }),
  };

  public async run(): Promise<void> {
    const { flags } = await this.parse(Mcp);
    if (flags.connect !== undefined && flags['data-dir'] !== undefined)
      this.error('use either --data-dir (embedded) or --connect, not both', { exit: 2 });
    if (flags.connect !== undefined && !/^(bolt|neo4j)(\+s|\+ssc)?:\/\//.test(flags.connect))
      this.error('--connect needs a bolt:// or neo4j:// URL', { exit: 2 });
    let loaded;
    try {
      loaded = loadConfig({
        configFile: flags.config,
        flags: {
          'database.path': flags['data-dir'],
          'embeddings.enabled': flags['embedding-enabled'] ? true : undefined,
          'logging.level': flags['log-level'] ?? (process.env.GRAPHDB_LOG_LEVEL === undefined ? 'warn' : undefined),
        },
      });
    } catch (error) {
      if (error instanceof ConfigError) this.error(error.message, { exit: 2 });
      throw error;
    }
    try {
      await runStdioMcpServer({
        config: loaded.config,
        ...(flags.database !== undefined ? { database: flags.database } : {}),
        ...(flags.connect !== undefined ? { connect: { url: flags.connect, username: flags.username, password: flags.password } } : {}),
        version: this.config.version,
      });
    } catch (error) {
      if (error instanceof ConfigError) this.error(error.message, { exit: 2 });
      this.error(error instanceof Error ? error.message : String(error), { exit: 1 });
    }
  }
}
