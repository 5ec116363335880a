/**
 * A `CypherRunner` over Bolt (neo4j-driver) for `graphdb mcp --connect bolt://...`: the memory
 * tools run against a running server with the given credentials, so that server's RBAC applies.
 * Driver values come back as engine values (integers as bigint, maps, nodes and relationships;
 * temporal values and points as their text).
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { Node, Relationship, type CypherValue, type CypherRunner } from '../../engine/index.js';

/** Connection settings. */
export interface RemoteConnection {
  readonly url: string;
  readonly username?: string;
  readonly password?: string;
  readonly database: string;
}

function toEngine(value: unknown): CypherValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(toEngine);
  if (neo4j.isInt(value)) return BigInt((value as { toString(): string }).toString());
  if (neo4j.isNode(value)) {
    const node = value as unknown as { identity: unknown; elementId: string; labels: string[]; properties: Record<string, unknown> };
    return new Node(toEngine(node.identity) as bigint, node.elementId, node.labels, propertiesOf(node.properties));
  }
  if (neo4j.isRelationship(value)) {
    const rel = value as unknown as {
      identity: unknown;
      elementId: string;
      type: string;
      start: unknown;
      end: unknown;
      startNodeElementId: string;
      endNodeElementId: string;
      properties: Record<string, unknown>;
    };
    return new Relationship(
      toEngine(rel.identity) as bigint,
      rel.elementId,
      rel.type,
      toEngine(rel.start) as bigint,
      toEngine(rel.end) as bigint,
      rel.startNodeElementId,
      rel.endNodeElementId,
      propertiesOf(rel.properties),
    );
  }
  if (value instanceof Uint8Array) return value;
  if (Object.getPrototypeOf(value) === Object.prototype) return propertiesOf(value as Record<string, unknown>);
  // Temporal values and points of the driver print as their Cypher text.
  return (value as { toString(): string }).toString();
}

function propertiesOf(object: Record<string, unknown>): ReadonlyMap<string, CypherValue> {
  return new Map(Object.entries(object).map(([key, item]) => [key, toEngine(item)]));
}

function toDriver(value: CypherValue): unknown {
  if (value instanceof Map) return Object.fromEntries([...value].map(([key, item]) => [key, toDriver(item as CypherValue)]));
  if (Array.isArray(value)) return value.map(toDriver);
  if (typeof value === 'bigint') return neo4j.int(value.toString());
  return value;
}

function parameters(params: ReadonlyMap<string, CypherValue>): Record<string, unknown> {
  return Object.fromEntries([...params].map(([key, value]) => [key, toDriver(value)]));
}

/** A runner and the driver behind it (close it when done). */
export function remoteRunner(connection: RemoteConnection): { runner: CypherRunner; driver: Driver } {
  const auth = connection.username === undefined ? undefined : neo4j.auth.basic(connection.username, connection.password ?? '');
  const driver = neo4j.driver(connection.url, auth, { useBigInt: true });
  const open = (mode: 'READ' | 'WRITE') =>
    driver.session({ database: connection.database, defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE });
  const runner: CypherRunner = {
    async run(query, params = new Map(), options = {}) {
      const session = open(options.mode ?? 'WRITE');
      try {
        const result = await session.run(query, parameters(params));
        const limit = options.limit ?? -1;
        const records = limit >= 0 ? result.records.slice(0, limit) : result.records;
        return {
          keys: result.records[0]?.keys.map(String) ?? [],
          rows: records.map((record) => record.keys.map((key) => toEngine(record.get(key)))),
          more: limit >= 0 && result.records.length > limit,
        };
      } finally {
        await session.close();
      }
    },
    async queryType(query, params = new Map()) {
      const session = open('READ');
      try {
        const result = await session.run(`EXPLAIN ${query}`, parameters(params));
        return result.summary.queryType;
      } finally {
        await session.close();
      }
    },
  };
  return { runner, driver };
}
