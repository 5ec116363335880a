/**
 * A subset of Lucene's classic query syntax, as `db.index.fulltext.queryNodes` accepts:
 *
 *   query   := orExpr
 *   orExpr  := andExpr ( ("OR" | "||")? andExpr )*      adjacent clauses are OR-ed (Lucene default)
 *   andExpr := unary ( ("AND" | "&&") unary )*
 *   unary   := ("NOT" | "!" | "-") unary | "+" unary | primary
 *   primary := "(" orExpr ")" | '"' words '"' | word | word "*"
 *
 * Terms are analyzed like documents (lower-cased, stemmed); a trailing `*` is a prefix query on
 * the unstemmed, lower-cased word. Field qualifiers (`title:x`), fuzzy (`~`) and boosts (`^`) are
 * not supported and are rejected rather than silently ignored.
 */
import { ArgumentError } from '../../errors/index.js';
import { analyze, tokenize } from './analyzer.js';

/** A parsed full-text query. `bool` is Lucene's BooleanQuery with should/must/mustNot clauses. */
export type TextQuery =
  | { readonly kind: 'term'; readonly term: string }
  | { readonly kind: 'prefix'; readonly prefix: string }
  | { readonly kind: 'phrase'; readonly terms: readonly string[] }
  | {
      readonly kind: 'bool';
      readonly should: readonly TextQuery[];
      readonly must: readonly TextQuery[];
      readonly mustNot: readonly TextQuery[];
    };

type Token =
  | { readonly type: 'word'; readonly text: string }
  | { readonly type: 'phrase'; readonly text: string }
  | { readonly type: 'op'; readonly text: 'AND' | 'OR' | 'NOT' | '+' | '-' | '(' | ')' };

function lex(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i]!;
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '"') {
      const end = input.indexOf('"', i + 1);
      if (end < 0) throw new ArgumentError(`Unterminated phrase in full-text query: ${input}`);
      tokens.push({ type: 'phrase', text: input.slice(i + 1, end) });
      i = end + 1;
    } else if (ch === '(' || ch === ')' || ch === '+' || ch === '-' || ch === '!') {
      tokens.push({ type: 'op', text: ch === '!' ? 'NOT' : ch });
      i++;
    } else if (input.startsWith('&&', i) || input.startsWith('||', i)) {
      tokens.push({ type: 'op', text: input[i] === '&' ? 'AND' : 'OR' });
      i += 2;
    } else {
      let end = i;
      while (end < input.length && !/[\s()"]/.test(input[end]!)) end++;
      const word = input.slice(i, end);
      i = end;
      if (word === 'AND' || word === 'OR' || word === 'NOT') tokens.push({ type: 'op', text: word });
      else tokens.push({ type: 'word', text: word });
    }
  }
  return tokens;
}

class Parser {
  private pos = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly source: string,
  ) {}

  parse(): TextQuery {
    const query = this.parseOr();
    if (this.pos < this.tokens.length) this.fail(`unexpected '${this.tokens[this.pos]!.text}'`);
    return query;
  }

  private peekOp(text: string): boolean {
    const token = this.tokens[this.pos];
    return token !== undefined && token.type === 'op' && token.text === text;
  }

  private fail(reason: string): never {
    throw new ArgumentError(`Invalid full-text query (${reason}): ${this.source}`);
  }

  /** orExpr: collects should / must / mustNot clauses of one boolean group. */
  private parseOr(): TextQuery {
    const should: TextQuery[] = [];
    const must: TextQuery[] = [];
    const mustNot: TextQuery[] = [];
    while (this.pos < this.tokens.length && !this.peekOp(')')) {
      if (this.peekOp('OR')) {
        this.pos++;
        continue;
      }
      const clause = this.parseAnd();
      if (clause.occur === 'must') must.push(clause.query);
      else if (clause.occur === 'mustNot') mustNot.push(clause.query);
      else should.push(clause.query);
    }
    if (should.length === 1 && must.length === 0 && mustNot.length === 0) return should[0]!;
    return { kind: 'bool', should, must, mustNot };
  }

  /** andExpr: `a AND b AND NOT c` becomes one must group. */
  private parseAnd(): { occur: 'should' | 'must' | 'mustNot'; query: TextQuery } {
    const first = this.parseUnary();
    if (!this.peekOp('AND')) return first;
    const must: TextQuery[] = [];
    const mustNot: TextQuery[] = [];
    const add = (clause: { occur: string; query: TextQuery }): void => {
      (clause.occur === 'mustNot' ? mustNot : must).push(clause.query);
    };
    add(first);
    while (this.peekOp('AND')) {
      this.pos++;
      add(this.parseUnary());
    }
    return { occur: 'should', query: { kind: 'bool', should: [], must, mustNot } };
  }

  private parseUnary(): { occur: 'should' | 'must' | 'mustNot'; query: TextQuery } {
    if (this.peekOp('NOT') || this.peekOp('-')) {
      this.pos++;
      return { occur: 'mustNot', query: this.parseUnary().query };
    }
    if (this.peekOp('+')) {
      this.pos++;
      return { occur: 'must', query: this.parseUnary().query };
    }
    return { occur: 'should', query: this.parsePrimary() };
  }

  private parsePrimary(): TextQuery {
    const token = this.tokens[this.pos++];
    if (token === undefined) this.fail('unexpected end of query');
    if (token.type === 'op') {
      if (token.text !== '(') this.fail(`unexpected '${token.text}'`);
      const inner = this.parseOr();
      if (!this.peekOp(')')) this.fail("missing ')'");
      this.pos++;
      return inner;
    }
    if (token.type === 'phrase') return phraseQuery(analyze(token.text));
    return this.wordQuery(token.text);
  }

  private wordQuery(word: string): TextQuery {
    if (/[:~^]/.test(word)) this.fail(`'${word}': field qualifiers, fuzzy and boost syntax are not supported`);
    if (word.endsWith('*')) {
      const prefix = tokenize(word.slice(0, -1)).join('');
      if (prefix.length === 0) this.fail('a prefix query needs at least one character');
      return { kind: 'prefix', prefix };
    }
    return phraseQuery(analyze(word));
  }
}

/** A word that analyzes to several terms ("e-mail") is a phrase, as in Lucene. */
function phraseQuery(terms: string[]): TextQuery {
  if (terms.length === 1) return { kind: 'term', term: terms[0]! };
  if (terms.length === 0) return { kind: 'bool', should: [], must: [], mustNot: [] };
  return { kind: 'phrase', terms };
}

/** Parses a Lucene-style full-text query. Throws `ArgumentError` on malformed input. */
export function parseTextQuery(input: string): TextQuery {
  return new Parser(lex(input), input).parse();
}
