/** Raw SQLite FTS5 (bm25(), unicode61 tokenizer): the full-text limit for B1 and B2. */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { Corpus, TextQuery } from '../gen/documents.js';
import { documentText } from '../gen/documents.js';
import type { ScoredDoc } from './bm25-reference.js';

/** An FTS5 table holding the corpus; rowid = document index + 1. */
export class Fts5Index {
  private readonly db: Database.Database;
  private readonly query: Database.Statement;

  private constructor(db: Database.Database) {
    this.db = db;
    this.query = db.prepare('SELECT rowid, bm25(docs) AS score FROM docs WHERE docs MATCH ? ORDER BY score LIMIT ?');
  }

  /** Creates the table and inserts every document in one transaction (B1's timed work). */
  static build(dir: string, corpus: Corpus): Fts5Index {
    const db = new Database(join(dir, 'fts5.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec('CREATE VIRTUAL TABLE docs USING fts5(body)');
    const insert = db.prepare('INSERT INTO docs (rowid, body) VALUES (?, ?)');
    db.transaction(() => {
      for (let i = 0; i < corpus.docs.length; i++) insert.run(i + 1, documentText(corpus, i));
    })();
    return new Fts5Index(db);
  }

  /** Top-k by BM25, best first (FTS5 reports bm25 negated). */
  search(q: TextQuery, k: number): ScoredDoc[] {
    const match = q.terms.map((t) => `"${t}"`).join(q.mode === 'OR' ? ' OR ' : ' AND ');
    return (this.query.all(match, k) as { rowid: number; score: number }[]).map((r) => ({ doc: Number(r.rowid) - 1, score: -r.score }));
  }

  close(): void {
    this.db.close();
  }
}
