/**
 * The playground page: public, self-contained (no external URLs), and working in a real browser:
 * headless Chromium (Debian `chromium`) opens it under a base path, the page runs a query on load
 * through fetch, and the DOM it dumps holds the server's answer.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { gqlData, startGraphqlServer, type TestServer } from './helpers.js';

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The DOM of `url` after its scripts ran (virtual time lets the page's fetch finish first). */
async function dumpDom(url: string): Promise<string> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-chromium-'));
  try {
    const { stdout } = await promisify(execFile)(
      'chromium',
      [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, '--virtual-time-budget=15000', '--dump-dom', url],
      { encoding: 'utf8', timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
    );
    return stdout;
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

function decodeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

describe('GraphQL playground', () => {
  let server: TestServer;
  const base = '/api';

  before(async () => {
    server = await startGraphqlServer({ 'server.bolt_enabled': false, 'server.base_path': base });
  });
  after(() => server.stop());

  it('is served as a self-contained HTML page', async () => {
    const response = await fetch(`${server.url}${base}/graphql/playground`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    const html = await response.text();
    assert.doesNotMatch(html, /(src|href)=["']?(https?:)?\/\//, 'no external scripts or styles');
    assert.match(html, /<textarea id="query"/);
  });

  it('runs a query from headless Chromium and shows the result', { timeout: 120_000 }, async () => {
    await gqlData(`${server.url}${base}`, 'mutation { createNode(input: {labels: ["Pg"], properties: {name: "from chromium"}}) { id } }');
    const query = '{ allNodes(labels: ["Pg"]) { labels properties } }';
    const dom = await dumpDom(`${server.url}${base}/graphql/playground?autorun=1&query=${encodeURIComponent(query)}`);
    const result = /<pre id="result"([^>]*)>([\s\S]*?)<\/pre>/.exec(dom);
    assert.ok(result, 'the result element is in the DOM');
    assert.match(result[1], /data-state="done"/);
    assert.match(result[1], /data-status="200"/);
    assert.deepEqual(JSON.parse(decodeHtml(result[2])), {
      data: { allNodes: [{ labels: ['Pg'], properties: { name: 'from chromium' } }] },
    });
  });
});
