/**
 * `graphdb mcp --data-dir D` (embedded, stdio) with the MCP SDK's own client: the memory
 * scenario, the tool allowlist (GRAPHDB_ASSISTANT_MCP_TOOLS) and data kept across restarts.
 * Needs `npm run build` (the test spawns bin/run.js).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, cleanEnv, cli, memoryScenario, root, stdioClient, tempDir } from './fixtures/scenario.js';

const home = tempDir('graphdb-mcp-stdio-');
after(() => home.cleanup());

function connect(dataDir: string, env: Record<string, string> = {}): Promise<Client> {
  return stdioClient(['--data-dir', dataDir], home.dir, env);
}

describe('graphdb mcp over stdio (embedded)', () => {
  it('serves the memory scenario, and the memories survive a restart', async () => {
    const dataDir = `${home.dir}/data`;
    const client = await connect(dataDir);
    let ids;
    try {
      assert.equal(client.getServerVersion()?.name, 'graphdb');
      ids = await memoryScenario(client);
    } finally {
      await client.close();
    }
    const again = await connect(dataDir);
    try {
      const recalled = await callTool(again, 'recall', { id: ids.c });
      assert.equal(recalled.memories[0].content, 'Cypher planner chooses index seeks for equality predicates');
      const recent = await again.readResource({ uri: 'graphdb://memories/recent' });
      assert.equal(JSON.parse((recent.contents[0] as { text: string }).text).memories.length, 6);
    } finally {
      await again.close();
    }
    const decay = (...args: string[]) =>
      promisify(execFile)(process.execPath, [cli, 'decay', ...args, '--data-dir', dataDir, '--json'], {
        cwd: root,
        env: cleanEnv(home.dir),
      });
    assert.deepEqual(JSON.parse((await decay('archive', String(ids.b))).stdout), { changed: 1 });
    const stats = JSON.parse((await decay('stats')).stdout);
    assert.equal(stats.memories.archived, 1);
    assert.equal(stats.memories.total, 6);
    const pass = JSON.parse((await decay('recalculate', '--dry-run')).stdout);
    assert.equal(pass.scanned, 6);
    assert.equal(pass.archived, 0);
  });

  it('offers only the tools GRAPHDB_ASSISTANT_MCP_TOOLS allows, refuses the others, and cuts results to max_tool_result_chars', async () => {
    const client = await connect(`${home.dir}/allowlist`, {
      GRAPHDB_ASSISTANT_MCP_TOOLS: 'discover,recall,cypher',
      GRAPHDB_ASSISTANT_MAX_TOOL_RESULT_CHARS: '300',
    });
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((tool) => tool.name),
        ['recall', 'discover', 'cypher'],
      );
      const refused = await callTool(client, 'store', { content: 'not allowed' }, true);
      assert.match(refused.error, /not available/);
      const big = (await client.callTool({ name: 'cypher', arguments: { query: 'UNWIND range(1, 100) AS i RETURN i' } })) as {
        content: { text: string }[];
      };
      assert.match(big.content[0].text, /^\{"columns":\["i"\].*… \[truncated \d+ characters\]$/s);
      assert.ok(big.content[0].text.length < 360);
    } finally {
      await client.close();
    }
  });
});
