/** Plays every `test/bolt/scripts/*.script` conversation against the server over the fake engine. */
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { BoltServer } from '../../src/server/bolt/index.js';
import { playScript } from './helpers/script.js';
import { startFakeServer } from './helpers/server.js';

const dir = new URL('./scripts/', import.meta.url);

describe('scripted Bolt conversations', () => {
  let server: BoltServer;
  before(async () => {
    ({ server } = await startFakeServer());
  });
  after(() => server.close());

  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.script'))
    .sort()) {
    it(file, () => playScript(server.port, readFileSync(new URL(file, dir), 'utf8')));
  }
});
