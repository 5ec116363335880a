/**
 * Every setting graphdb knows, declared once (see `../declare.ts`): the tree's keys are the YAML
 * keys, so `async_writes.flush_interval` is `async_writes: { flush_interval: 50ms }` in the file.
 */
import { cluster } from './cluster.js';
import { database } from './database.js';
import { mvcc } from './mvcc.js';
import { embeddings, embeddingWorker, search, searchRerank, vector } from './search.js';
import { auth, db, dbms } from './security.js';
import { cors, server, vectorapi } from './server.js';
import { assistant, asyncWrites, logging, memoryDecay, resources, wal } from './services.js';

/** The declaration tree of the whole configuration. */
export const DECLARATIONS = {
  database,
  server,
  dbms,
  db,
  vectorapi,
  auth,
  cors,
  logging,
  async_writes: asyncWrites,
  embeddings,
  embedding_worker: embeddingWorker,
  search,
  vector,
  search_rerank: searchRerank,
  assistant,
  memory_decay: memoryDecay,
  cluster,
  mvcc,
  wal,
  resources,
};
