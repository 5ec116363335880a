/**
 * The web UI end to end: a real server (auth on, Bolt with WebSocket, port 0) and Debian's
 * chromium driven by playwright-core. The app is built with the same esbuild step as
 * `npm run build`. Screenshots go to test-artifacts/browser/ (gitignored).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildBrowserApp } from '../../src/server/browser/build.mjs';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ARTIFACTS = path.join(root, 'test-artifacts/browser');
const ROOT_AUTH = { authorization: `Basic ${Buffer.from('root:rootpw').toString('base64')}` };

async function cypher(server: TestServer, database: string, statements: string[]): Promise<void> {
  const response = await commit(server.url, statements, database, ROOT_AUTH);
  assert.deepEqual(response.body.errors, [], `${database}: ${statements.join('; ')}`);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/** Types a script into the editor (replacing its text) and runs it with Ctrl-Enter; returns the new frame. */
async function run(page: Page, script: string) {
  const before = await page.locator('[data-testid=frame]').count();
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(script);
  await page.keyboard.press('Control+Enter');
  await page.locator('[data-testid=frame]').nth(before).waitFor();
  const frame = page.locator('[data-testid=frame]').first();
  await frame.locator('xpath=self::*[@data-state!="running"]').waitFor();
  return frame;
}

/** The page's animation-frame scheduler (the test's TypeScript has no DOM library). */
interface AnimationFrames {
  requestAnimationFrame(callback: (time: number) => void): number;
}

async function login(page: Page, server: TestServer, username: string, password: string): Promise<void> {
  await page.goto(`${server.url}/`);
  await page.fill('input[name=username]', username);
  await page.fill('input[name=password]', password);
  await page.click('form[data-testid=login] button[type=submit]');
  await page.waitForSelector('[data-testid=user]');
}

describe('web UI in headless chromium', { timeout: 180_000 }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await buildBrowserApp();
    server = await startTestServer(
      { 'auth.enabled': true, 'server.bolt_enabled': true, 'server.bolt_port': 0, 'server.bolt_address': '127.0.0.1' },
      { GRAPHDB_AUTH: 'root:rootpw' },
    );
    await cypher(server, 'graphdb', [
      "CREATE (a:Person {name: 'Alice', age: 42})-[:KNOWS {since: 2019}]->(b:Person {name: 'Bob'}), (a)-[:WORKS_AT]->(:Company {name: 'Acme graph databases'}), (b)-[:KNOWS]->(:Person {name: 'Carol'})",
    ]);
    await cypher(server, 'system', [
      "CREATE USER rita SET PASSWORD 'rita-password' CHANGE NOT REQUIRED",
      'GRANT ROLE reader TO rita',
      'CREATE DATABASE second',
      'CREATE DATABASE big',
      'CREATE ALIAS other FOR DATABASE second',
    ]);
    await cypher(server, 'second', ["CREATE (:Planet {name: 'Mars'})-[:ORBITS]->(:Star {name: 'Sun'})"]);
    await cypher(server, 'big', [
      'UNWIND range(0, 999) AS i CREATE (:Item {i: i})',
      'MATCH (n:Item) WITH collect(n) AS items UNWIND range(0, 4999) AS k WITH items[k % 1000] AS a, items[(k * 7 + 13) % 1000] AS b, k CREATE (a)-[:LINK {k: k}]->(b)',
    ]);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true });
    page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('redirects browsers from / to /browser/ while API clients get JSON', async () => {
    const html = await fetch(`${server.url}/`, { headers: { accept: 'text/html,application/xhtml+xml' }, redirect: 'manual' });
    assert.equal(html.status, 302);
    assert.equal(html.headers.get('location'), '/browser/');
    const api = await request(`${server.url}/`, { headers: { accept: 'application/json' } });
    assert.equal(api.status, 200);
    assert.match(api.body.bolt_direct, /^bolt:\/\//);
    const index = await fetch(`${server.url}/browser/`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(index.status, 200);
    assert.match(index.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.doesNotMatch(await index.text(), /(src|href)=["']?(https?:)?\/\//, 'no external scripts or styles');
    const config = await request(`${server.url}/browser/config.json`);
    assert.equal(config.body.authEnabled, true);
    assert.equal(config.body.bolt.port, server.server.bolt!.port);
  });

  it('logs in and runs a query: graph, table, JSON', async () => {
    await page.goto(`${server.url}/`);
    await page.waitForSelector('form[data-testid=login]');
    await page.fill('input[name=username]', 'root');
    await page.fill('input[name=password]', 'wrong-password');
    await page.click('form[data-testid=login] button[type=submit]');
    await page.waitForSelector('.login-status [data-testid=error]');
    assert.match(await page.locator('.login-status').innerText(), /Neo\.ClientError\.Security\.Unauthorized/);
    await shot(page, '01-login-refused');
    await login(page, server, 'root', 'rootpw');
    assert.equal(await page.locator('[data-testid=user]').innerText(), 'root (admin)');

    const frame = await run(page, 'MATCH (p:Person)-[k:KNOWS]->(q) RETURN p, k, q');
    assert.equal(await frame.getAttribute('data-state'), 'done');
    assert.equal(await frame.getAttribute('data-view'), 'graph');
    const graph = frame.locator('[data-testid=graph]');
    assert.equal(await graph.getAttribute('data-nodes'), '3');
    assert.equal(await graph.getAttribute('data-relationships'), '2');
    await page.waitForSelector('[data-testid=frame] [data-testid=graph][data-layout-done=true]', { timeout: 15_000 });
    await shot(page, '02-query-graph');

    await frame.locator('button[data-view=table]').click();
    const table = frame.locator('[data-testid=table]');
    assert.deepEqual(await table.locator('th').allInnerTexts(), ['p', 'k', 'q']);
    assert.equal(await table.locator('tbody tr').count(), 2);
    assert.match(await table.innerText(), /"name":"Alice"/);
    await shot(page, '03-query-table');

    await frame.locator('button[data-view=json]').click();
    const json = JSON.parse(await frame.locator('[data-testid=json]').innerText()) as { p: { labels: string[] } }[];
    assert.equal(json.length, 2);
    assert.deepEqual(json[0].p.labels, ['Person']);
  });

  it('expands a node on double-click and inspects it', async () => {
    const frame = await run(page, "MATCH (a:Person {name: 'Alice'}) RETURN a");
    const graph = frame.locator('[data-testid=graph]');
    assert.equal(await graph.getAttribute('data-nodes'), '1');
    const box = (await graph.boundingBox())!;
    // One node: sigma centres it in the view.
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await frame.locator('[data-testid=inspector] .chips').waitFor();
    assert.match(await frame.locator('[data-testid=inspector]').innerText(), /Alice/);
    await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
    await page.locator('[data-testid=frame]').first().locator('xpath=self::*[@data-expanded="1"]').waitFor();
    assert.equal(await graph.getAttribute('data-nodes'), '3', 'Alice, Bob and Acme');
    assert.equal(await graph.getAttribute('data-relationships'), '2');
    await shot(page, '04-expanded');
  });

  it('shows errors with code and position, plans, history and cancels a running query', async () => {
    const failed = await run(page, 'MATCH (n RETURN n');
    assert.equal(await failed.getAttribute('data-state'), 'error');
    const error = await failed.locator('[data-testid=error]').innerText();
    assert.match(error, /Neo\.ClientError\.Statement\.SyntaxError/);
    assert.match(error, /line 1, column \d+/);
    await shot(page, '05-error');

    const plan = await run(page, 'PROFILE MATCH (p:Person) WHERE p.age > 40 RETURN p.name');
    assert.equal(await plan.getAttribute('data-state'), 'done');
    await plan.locator('button[data-view=plan]').click();
    const planText = await plan.locator('[data-testid=plan]').innerText();
    assert.match(planText, /ProduceResults/);
    assert.match(planText, /db hits/);
    await shot(page, '06-profile');

    // Up in a one-line editor recalls the previous statement.
    await page.click('.cm-content');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.locator('.cm-content').innerText(), 'PROFILE MATCH (p:Person) WHERE p.age > 40 RETURN p.name');

    // Two statements, two frames, with parameters.
    await page.getByRole('button', { name: 'Params' }).click();
    await page.fill('[data-testid=params]', '{"who": "Bob", "n": 9007199254740993}');
    const second = await run(page, 'MATCH (p:Person {name: $who}) RETURN p.name AS name; RETURN $n AS n');
    await page.locator('.batch').first().locator('[data-testid=frame][data-state=done]').nth(1).waitFor();
    assert.equal(await second.getAttribute('data-state'), 'done');
    const batchText = await page.locator('.batch').first().innerText();
    assert.match(batchText, /9007199254740993/, 'integer parameters stay exact');

    const frameCount = await page.locator('[data-testid=frame]').count();
    await page.click('.cm-content');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('UNWIND range(1, 1000000000) AS x WITH x WHERE x < 0 RETURN count(x)');
    await page.keyboard.press('Control+Enter');
    await page.locator('[data-testid=frame]').nth(frameCount).waitFor();
    const running = page.locator('[data-testid=frame]').first();
    await running.locator('[data-testid=cancel]').click();
    await running.locator('xpath=self::*[@data-state="cancelled"]').waitFor();
    assert.match(await running.locator('[data-testid=error]').innerText(), /Neo\.ClientError\.Transaction\.Terminated/);
  });

  it('switches database (aliases listed) and the schema follows', async () => {
    const options = await page.locator('[data-testid=database] option').allInnerTexts();
    assert.ok(options.includes('second'), options.join(','));
    assert.ok(options.includes('other → second'), options.join(','));
    assert.ok(options.includes('neo4j → graphdb'), options.join(','));
    await page.selectOption('[data-testid=database]', 'other');
    await page.locator('[data-testid=schema]', { hasText: 'Planet (1)' }).waitFor();
    const frame = await run(page, 'MATCH (p:Planet)-[o:ORBITS]->(s) RETURN p, o, s');
    assert.equal(await frame.locator('.db-badge').innerText(), 'other');
    assert.equal(await frame.locator('[data-testid=graph]').getAttribute('data-nodes'), '2');
    await shot(page, '07-other-database');
    await page.selectOption('[data-testid=database]', 'graphdb');
    await page.locator('[data-testid=schema]', { hasText: 'Person (3)' }).waitFor();
  });

  it('renders 1,000 nodes and 5,000 relationships (time reported)', async (t) => {
    await page.selectOption('[data-testid=database]', 'big');
    const frame = await run(page, 'MATCH p = (:Item)-[:LINK]->(:Item) RETURN p');
    assert.equal(await frame.getAttribute('data-state'), 'done');
    const graph = frame.locator('[data-testid=graph]');
    assert.equal(await graph.getAttribute('data-nodes'), '1000');
    assert.equal(await graph.getAttribute('data-relationships'), '5000');
    await frame.locator('xpath=self::*[@data-render-ms]').waitFor();
    const renderMs = Number(await frame.getAttribute('data-render-ms'));
    // The page stays responsive while the layout runs: a round trip through the page's event loop.
    const started = Date.now();
    await page.evaluate(() => new Promise((resolve) => (globalThis as unknown as AnimationFrames).requestAnimationFrame(resolve)));
    const frameLatency = Date.now() - started;
    t.diagnostic(`graph of 1000 nodes / 5000 relationships drawn in ${renderMs} ms; next animation frame after ${frameLatency} ms`);
    console.log(`# browser: 1000 nodes / 5000 relationships drawn in ${renderMs} ms; animation frame latency ${frameLatency} ms`);
    await page.waitForSelector('[data-testid=frame] [data-testid=graph][data-layout-done=true]', { timeout: 20_000 });
    await shot(page, '08-big-graph');
    await page.selectOption('[data-testid=database]', 'graphdb');
  });

  it('runs a search with scores', async () => {
    await page.click('a[data-page=search]');
    await page.fill('[data-testid=search-query]', 'graph databases');
    await page.click('[data-testid=search-run]');
    await page.waitForSelector('[data-testid=search-results], .search-page [data-testid=error]');
    const results = page.locator('[data-testid=search-results]');
    assert.equal(await results.count(), 1, await page.locator('.search-page').innerText());
    const firstRow = await results.locator('tbody tr').first().innerText();
    assert.match(firstRow, /Acme graph databases/);
    assert.match(firstRow, /\d\.\d{4}/, 'a score');
    await shot(page, '09-search');
  });

  it('creates a user as admin, and the new user can log in', async () => {
    await page.click('a[data-page=admin]');
    await page.waitForSelector('[data-testid=create-user]');
    await page.fill('[data-testid=new-user]', 'dora');
    await page.fill('[data-testid=new-password]', 'dora-password');
    await page.click('[data-testid=create-user] button[type=submit]');
    await page.waitForSelector('[data-testid=admin-ok]');
    assert.match(await page.locator('[data-testid=admin-body]').innerText(), /dora/);
    await shot(page, '10-admin-users');
    const token = await request(`${server.url}/auth/token`, { method: 'POST', json: { username: 'dora', password: 'dora-password' } });
    assert.equal(token.status, 200);
    const me = await request(`${server.url}/auth/me`, { headers: { authorization: `Bearer ${token.body.access_token}` } });
    assert.deepEqual(me.body.roles, ['reader']);

    await page.click('a[href="#/admin/metrics"]');
    await page.waitForSelector('[data-testid=chart]');
    assert.ok((await page.locator('[data-testid=chart]').count()) >= 4);
    await page.click('a[href="#/admin/mvcc"]');
    await page.waitForSelector('[data-testid=mvcc-status]');
    await page.click('[data-testid=prune]');
    await page.waitForSelector('[data-testid=admin-ok]');
  });

  it('refuses a read-only user the admin pages', async () => {
    await page.click('[data-testid=logout]');
    await page.waitForSelector('form[data-testid=login]');
    await login(page, server, 'rita', 'rita-password');
    assert.equal(await page.locator('a[data-page=admin]').count(), 0, 'no Admin link for a reader');
    await page.goto(`${server.url}/browser/#/admin/users`);
    await page.waitForSelector('[data-testid=admin-body] [data-testid=error]');
    assert.match(await page.locator('[data-testid=admin-body]').innerText(), /Neo\.ClientError\.Security\.Forbidden/);
    await shot(page, '11-reader-refused');
    assert.deepEqual(pageErrors, []);
  });
});
