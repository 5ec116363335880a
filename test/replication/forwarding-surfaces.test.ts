/**
 * Writes sent to a follower on the surfaces besides Bolt and the HTTP transaction API reach the
 * leader as the caller (3 nats-server + 3 `graphdb serve` members on loopback), through real
 * clients: a GraphQL mutation (fetch), the HTTP write-behind path (an async 202 whose status reads
 * `flushed`), and vector-API writes (the official Qdrant gRPC client). Each write is then
 * readable on every member.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { Distance, QdrantClient } from '@qdrant/js-client-grpc';
import { GraphdbCluster, PASSWORD, USER, basicAuth } from './graphdb-cluster.ts';
import { freePort, until } from './nats-cluster.ts';
import { numId, point, vectorsConfig } from '../vectorapi/helpers.ts';

let cluster: GraphdbCluster;
const grpcPorts: number[] = [];
const drivers: Driver[] = [];
let leader = -1;
let follower = -1;

function driver(member: number): Driver {
  const d = neo4j.driver(`bolt://${cluster.members[member].bolt}`, neo4j.auth.basic(USER, PASSWORD), { useBigInt: true });
  drivers.push(d);
  return d;
}

/** Count of `label` nodes on every member once they converged. */
async function countsEverywhere(label: string): Promise<bigint[]> {
  await cluster.converged();
  const counts: bigint[] = [];
  for (const m of cluster.members) {
    const result = await driver(m.index).executeQuery(
      `MATCH (n:${label}) RETURN count(n) AS c`,
      {},
      { database: 'graphdb', routing: neo4j.routing.READ },
    );
    counts.push(result.records[0].get('c') as bigint);
  }
  return counts;
}

before(async () => {
  for (let i = 0; i < 3; i++) grpcPorts.push(await freePort());
  cluster = await GraphdbCluster.start(3, { GRAPHDB_ASYNC_WRITES_ENABLED: 'true', GRAPHDB_VECTORAPI_GRPC_ENABLED: 'true' }, null, (m) => ({
    GRAPHDB_VECTORAPI_GRPC_LISTEN_ADDR: `127.0.0.1:${grpcPorts[m.index]}`,
  }));
  leader = await cluster.leader();
  follower = (leader + 1) % 3;
});

after(async () => {
  for (const d of drivers) await d.close().catch(() => undefined);
  await cluster?.close();
});

describe('write forwarding from a follower', () => {
  it('a GraphQL mutation sent to a follower runs on the leader as the caller', async () => {
    const response = await fetch(`${cluster.members[follower].http}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: basicAuth() },
      body: JSON.stringify({ query: 'mutation { createNode(input: {labels: ["ViaGraphql"], properties: {n: 1}}) { id labels } }' }),
    });
    const body = (await response.json()) as { data?: { createNode?: { id: string; labels: string[] } }; errors?: unknown[] };
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    assert.deepEqual(body.data?.createNode?.labels, ['ViaGraphql']);
    assert.deepEqual(await countsEverywhere('ViaGraphql'), [1n, 1n, 1n]);
  });

  it('an async (202) write sent to a follower is flushed on the leader as the caller', async () => {
    const member = cluster.members[follower];
    const response = await fetch(`${member.http}/db/graphdb/tx/commit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth() },
      body: JSON.stringify({ statements: [{ statement: 'CREATE (:ViaWriteBehind {n: 1})' }] }),
    });
    assert.equal(response.status, 202, await response.text());
    const location = response.headers.get('location')!;
    let status: { state?: string; error?: unknown } = {};
    await until(
      async () => {
        const answer = await fetch(new URL(location, member.http), { headers: { authorization: basicAuth() } });
        status = (await answer.json()) as typeof status;
        return status.state !== 'queued';
      },
      20_000,
      'the async write to be flushed',
    );
    assert.equal(status.state, 'flushed', JSON.stringify(status));
    assert.deepEqual(await countsEverywhere('ViaWriteBehind'), [1n, 1n, 1n]);
  });

  it('vector-API writes sent to a follower (Qdrant gRPC client) run on the leader as the caller', async () => {
    const client = new QdrantClient({
      url: `http://127.0.0.1:${grpcPorts[follower]}`,
      headers: { authorization: basicAuth() },
      checkCompatibility: false,
    });
    await client.api('collections').create({ collectionName: 'fwd', vectorsConfig: vectorsConfig(3, Distance.Cosine) });
    await client.api('points').upsert({ collectionName: 'fwd', wait: true, points: [point(1, [1, 0, 0]), point(2, [0, 1, 0])] });
    await cluster.converged();
    const onLeader = new QdrantClient({
      url: `http://127.0.0.1:${grpcPorts[leader]}`,
      headers: { authorization: basicAuth() },
      checkCompatibility: false,
    });
    assert.equal((await onLeader.api('points').count({ collectionName: 'fwd' })).result?.count, 2n);
    const got = await onLeader.api('points').get({ collectionName: 'fwd', ids: [numId(2)] });
    assert.equal(got.result.length, 1);
  });
});
