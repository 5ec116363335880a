/**
 * P1 (Bolt RETURN 1), P2 (HTTP tx/commit RETURN 1) and P3 (GraphQL small query): graphdb's servers
 * against a raw TCP echo and bare fastify routes, in the same run.
 */
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import type { BenchContext } from '../context.js';
import { measureConcurrent } from '../measure.js';
import { EchoClient, GRAPHQL_SMALL, TX_COMMIT_RETURN_1, postJson, startEchoServer, startFastifyStub } from '../peers/net.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';
import { GRAPHDB_BOLT, GRAPHDB_HTTP } from './common.js';
import { boltReturn1 } from '../graphdb/bolt.js';
import type { RunningGraphdb } from '../graphdb/server.js';

/** A Bolt RUN+PULL of `RETURN 1` is ~40 bytes each way; the echo moves the same. */
const ECHO_PAYLOAD = Buffer.alloc(40, 0x61);

async function p1(ctx: BenchContext): Promise<WorkloadResult[]> {
  const out: WorkloadResult[] = [];
  for (const connections of [1, 16]) {
    const rec = new WorkloadRecorder(
      `P1@${connections}`,
      `Bolt RETURN 1, neo4j-driver, ${connections} connection(s)`,
      'round trips/s',
      '≥ 0.5× raw TCP echo',
      [{ against: 'raw TCP echo', factor: 0.5 }],
    );
    const echo = await startEchoServer();
    try {
      const clients = await Promise.all(Array.from({ length: connections }, () => EchoClient.connect(echo.port)));
      const t = await measureConcurrent((c) => clients[c].roundTrip(ECHO_PAYLOAD), connections, { budgetMs: ctx.profile.budgetMs });
      rec.ok('raw TCP echo', 'limit', t, '40-byte request/response on a persistent socket');
      ctx.log(`  P1@${connections} raw TCP echo: ${t.opsPerSec.toFixed(0)}/s`);
      for (const c of clients) c.close();
    } finally {
      await echo.stop();
    }
    if (typeof ctx.graphdb.bolt === 'string') rec.pending(GRAPHDB_BOLT, ctx.graphdb.bolt);
    else {
      try {
        const server = await ctx.graphdb.bolt(ctx.tmp);
        try {
          const { timing, answer } = await boltReturn1(server.port, connections, ctx.profile.budgetMs);
          rec.ok(GRAPHDB_BOLT, 'ours', timing);
          rec.check('RETURN 1 answers 1', answer === 1, `answered ${String(answer)}`);
        } finally {
          await server.stop();
        }
      } catch (e) {
        rec.failed(GRAPHDB_BOLT, 'ours', e);
      }
    }
    out.push(rec.finish());
  }
  return out;
}

/** The part of a response every adapter must agree on (graphdb may add fields such as bookmarks). */
type Canonical = (body: unknown) => unknown;

const txCommitRows: Canonical = (body) => {
  const results = (body as { results?: { columns?: unknown; data?: { row?: unknown }[] }[] }).results;
  return { columns: results?.[0]?.columns, rows: results?.[0]?.data?.map((d) => d.row) };
};

/** GraphQL answers differ in counts (the stub is static); agree on the shape. */
const statsShape: Canonical = (body) => {
  const stats = (body as { data?: { stats?: Record<string, unknown> } }).data?.stats ?? {};
  return Object.entries(stats)
    .map(([k, v]) => `${k}:${typeof v}`)
    .sort();
};

async function httpLike(
  ctx: BenchContext,
  id: string,
  title: string,
  factor: number,
  path: string,
  body: unknown,
  expected: unknown,
  canonical: Canonical,
  ours: string | { port: number; path: string },
): Promise<WorkloadResult> {
  const connections = 10;
  const rec = new WorkloadRecorder(id, title, 'requests/s', `≥ ${factor}× the bare fastify stub`, [{ against: 'fastify stub', factor }]);
  const stub = await startFastifyStub();
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  try {
    rec.answer('expected JSON', canonical(expected));
    rec.answer('fastify stub', canonical(await postJson(agent, stub.port, path, body)));
    const t = await measureConcurrent(() => postJson(agent, stub.port, path, body), connections, { budgetMs: ctx.profile.budgetMs });
    rec.ok('fastify stub', 'limit', t, `bare route returning the expected JSON, ${connections} keep-alive connections`);
    ctx.log(`  ${id} fastify stub: ${t.opsPerSec.toFixed(0)}/s`);
  } finally {
    agent.destroy();
    await stub.stop();
  }
  if (typeof ours === 'string') rec.pending(GRAPHDB_HTTP, ours);
  else {
    const oursAgent = new http.Agent({ keepAlive: true, maxSockets: connections });
    try {
      rec.answer(GRAPHDB_HTTP, canonical(await postJson(oursAgent, ours.port, ours.path, body)));
      const t = await measureConcurrent(() => postJson(oursAgent, ours.port, ours.path, body), connections, {
        budgetMs: ctx.profile.budgetMs,
      });
      rec.ok(GRAPHDB_HTTP, 'ours', t, `startServer (graphdb serve path), ${connections} keep-alive connections`);
      ctx.log(`  ${id} graphdb HTTP: ${t.opsPerSec.toFixed(0)}/s`);
    } catch (e) {
      rec.failed(GRAPHDB_HTTP, 'ours', e);
    } finally {
      oursAgent.destroy();
    }
  }
  return rec.finish();
}

/** Where `startServer` mounts the GraphQL endpoint (src/server/graphql, next to the HTTP API). */
const GRAPHQL_PATH = '/graphql';

/** Runs P1, P2 and P3 (G10 runs with the loaded graph, see oltp.ts). */
export async function runProtocolWorkloads(ctx: BenchContext): Promise<WorkloadResult[]> {
  ctx.log('P1 Bolt round trips');
  const out = await p1(ctx);
  ctx.log('P2 HTTP tx/commit, P3 GraphQL');
  let server: RunningGraphdb | null = null;
  let serverProblem = typeof ctx.graphdb.http === 'string' ? ctx.graphdb.http : '';
  if (typeof ctx.graphdb.http !== 'string') {
    try {
      const dir = join(ctx.tmp, 'server');
      mkdirSync(dir, { recursive: true });
      server = await ctx.graphdb.http(dir);
      if (server.httpPort === null) serverProblem = 'startServer started no HTTP listener';
    } catch (e) {
      serverProblem = `startServer failed: ${(e as Error).message.split('\n')[0]}`;
    }
  }
  try {
    const txPath = (db: string): string => `/db/${db}/tx/commit`;
    const ours = server?.httpPort ? { port: server.httpPort, path: txPath(server.database) } : serverProblem;
    out.push(
      await httpLike(
        ctx,
        'P2',
        'HTTP tx/commit RETURN 1, 10 connections',
        0.7,
        txPath('graphdb'),
        { statements: [{ statement: 'RETURN 1' }] },
        TX_COMMIT_RETURN_1,
        txCommitRows,
        ours,
      ),
    );
    ctx.log('P3 GraphQL');
    const oursGraphql = server?.httpPort ? { port: server.httpPort, path: GRAPHQL_PATH } : serverProblem;
    out.push(
      await httpLike(
        ctx,
        'P3',
        'GraphQL small query, 10 connections',
        0.5,
        GRAPHQL_PATH,
        { query: '{ stats { nodeCount relationshipCount } }' },
        GRAPHQL_SMALL,
        statsShape,
        oursGraphql,
      ),
    );
  } finally {
    await server?.stop();
  }
  return out;
}
