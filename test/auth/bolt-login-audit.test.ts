import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { GraphDB } from '../../src/engine/index.js';
import { AuthService, type AuditEvent } from '../../src/engine/auth/index.js';
import { startBoltServer, type BoltServer } from '../../src/server/bolt/index.js';
import { boltAuthenticator } from '../../src/server/credentials.js';

const SECRET = 'x'.repeat(40);
const FAST = { N: 1024, r: 8, p: 1 };

async function connectCode(port: number, user: string, password: string): Promise<string> {
  const driver = neo4j.driver(`bolt://127.0.0.1:${port}`, neo4j.auth.basic(user, password), {
    logging: { level: 'error', logger: () => undefined },
  });
  try {
    await driver.verifyConnectivity();
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await driver.close();
  }
}

describe('Bolt logins and the auth service', () => {
  let db: GraphDB;
  let server: BoltServer;
  const events: AuditEvent[] = [];

  before(async () => {
    db = await GraphDB.open();
    const auth = await AuthService.open({
      systemSession: () => db.session({ database: 'system' }),
      jwtSecret: SECRET,
      initialCredentials: 'root:rootpw',
      audit: (event) => events.push(event),
      guard: { maxFailuresPerUser: 100, maxFailuresPerIp: 2, lockoutMs: 60_000 },
      scryptCost: FAST,
    });
    server = await startBoltServer({ port: 0, host: '127.0.0.1', engine: db, authenticate: boltAuthenticator(auth, false) });
  });
  after(async () => {
    await server.close();
    await db.close();
  });

  it('audits a failed login with the client IP and applies the per-IP limit', async () => {
    assert.equal(await connectCode(server.port, 'root', 'wrong'), 'Neo.ClientError.Security.Unauthorized');
    const failed = events.filter((e) => e.type === 'failed_login');
    assert.equal(failed.length, 1);
    assert.deepEqual({ username: failed[0].username, ip: failed[0].ip }, { username: 'root', ip: '127.0.0.1' });
    assert.equal(await connectCode(server.port, 'nobody', 'wrong'), 'Neo.ClientError.Security.Unauthorized');
    assert.equal(await connectCode(server.port, 'root', 'rootpw'), 'Neo.ClientError.Security.AuthenticationRateLimit');
  });
});
