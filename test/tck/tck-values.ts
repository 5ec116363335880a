/**
 * The TCK's value notation (result cells and parameters) and its parser.
 *
 * Terminology:
 * - `TckValue` is the parsed form of a cell: `1` (integer), `1.0` (float), `'s'` (string),
 *   `[..]` lists, `{k: v}` maps, `(:L {p: 1})` nodes, `[:T {p: 1}]` relationships and
 *   `<(a)-[:T]->(b)>` paths. Nodes and relationships carry no identity: the TCK compares them by
 *   labels/type and properties only.
 */

/** A parsed TCK cell value. */
export type TckValue =
  | { readonly k: 'null' }
  | { readonly k: 'bool'; readonly v: boolean }
  | { readonly k: 'int'; readonly v: bigint }
  | { readonly k: 'float'; readonly v: number }
  | { readonly k: 'string'; readonly v: string }
  | { readonly k: 'list'; readonly items: readonly TckValue[] }
  | { readonly k: 'map'; readonly entries: ReadonlyMap<string, TckValue> }
  | TckNode
  | TckRel
  | { readonly k: 'path'; readonly start: TckNode; readonly steps: readonly TckPathStep[] };

/** A node pattern value. */
export interface TckNode {
  readonly k: 'node';
  readonly labels: readonly string[];
  readonly props: ReadonlyMap<string, TckValue>;
}

/** A relationship value. */
export interface TckRel {
  readonly k: 'rel';
  readonly type: string;
  readonly props: ReadonlyMap<string, TckValue>;
}

/** One hop of a path: `forward` when written `-[..]->`. */
export interface TckPathStep {
  readonly rel: TckRel;
  readonly forward: boolean;
  readonly node: TckNode;
}

/** Parses one TCK cell. Throws on malformed text. */
export function parseTckValue(text: string): TckValue {
  const parser = new TckValueParser(text);
  const value = parser.value();
  parser.end();
  return value;
}

class TckValueParser {
  private pos = 0;
  constructor(private readonly text: string) {}

  end(): void {
    this.ws();
    if (this.pos !== this.text.length) this.fail('trailing text');
  }

  value(): TckValue {
    this.ws();
    const c = this.text[this.pos];
    if (c === "'") return { k: 'string', v: this.string() };
    if (c === '[') return this.peekRel() ? this.rel() : this.list();
    if (c === '{') return { k: 'map', entries: this.props() };
    if (c === '(') return this.node();
    if (c === '<') return this.path();
    return this.atom();
  }

  private atom(): TckValue {
    const match =
      /^(null|true|false|NaN|-?Infinity|-?\d+\.\d*(?:[eE][-+]?\d+)?|-?\.\d+(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+|-?0x[0-9a-fA-F]+|-?0o[0-7]+|-?\d+)/.exec(
        this.text.slice(this.pos),
      );
    if (!match) this.fail('value');
    const token = match[0];
    this.pos += token.length;
    if (token === 'null') return { k: 'null' };
    if (token === 'true' || token === 'false') return { k: 'bool', v: token === 'true' };
    if (token === 'NaN') return { k: 'float', v: NaN };
    if (token.endsWith('Infinity')) return { k: 'float', v: token.startsWith('-') ? -Infinity : Infinity };
    if (/^-?0[xo]/.test(token)) {
      const negative = token.startsWith('-');
      const magnitude = BigInt(token.replace('-', '').replace('0o', '0o'));
      return { k: 'int', v: negative ? -magnitude : magnitude };
    }
    if (/[.eE]/.test(token)) return { k: 'float', v: Number(token) };
    return { k: 'int', v: BigInt(token) };
  }

  private string(): string {
    this.expect("'");
    let out = '';
    while (this.pos < this.text.length) {
      const c = this.text[this.pos++];
      if (c === "'") return out;
      if (c === '\\') {
        const next = this.text[this.pos++];
        out += next === 'n' ? '\n' : next === 't' ? '\t' : (next ?? '');
      } else out += c;
    }
    return this.fail('unterminated string');
  }

  private list(): TckValue {
    this.expect('[');
    const items: TckValue[] = [];
    this.ws();
    if (this.eat(']')) return { k: 'list', items };
    do items.push(this.value());
    while (this.eat(','));
    this.expect(']');
    return { k: 'list', items };
  }

  private props(): Map<string, TckValue> {
    this.expect('{');
    const entries = new Map<string, TckValue>();
    this.ws();
    if (this.eat('}')) return entries;
    do {
      const key = this.name();
      this.expect(':');
      entries.set(key, this.value());
    } while (this.eat(','));
    this.expect('}');
    return entries;
  }

  private name(): string {
    this.ws();
    if (this.text[this.pos] === '`') {
      const close = this.text.indexOf('`', this.pos + 1);
      const name = this.text.slice(this.pos + 1, close);
      this.pos = close + 1;
      return name;
    }
    const match = /^[\p{L}_][\p{L}\p{N}_]*/u.exec(this.text.slice(this.pos));
    if (!match) this.fail('name');
    this.pos += match[0].length;
    return match[0];
  }

  /** `[:` after optional spaces means a relationship, not a list. */
  private peekRel(): boolean {
    return /^\[\s*:/.test(this.text.slice(this.pos));
  }

  private node(): TckNode {
    this.expect('(');
    const labels: string[] = [];
    while (this.eat(':')) labels.push(this.name());
    this.ws();
    const props = this.text[this.pos] === '{' ? this.props() : new Map<string, TckValue>();
    this.expect(')');
    return { k: 'node', labels, props };
  }

  private rel(): TckRel {
    this.expect('[');
    this.expect(':');
    const type = this.name();
    this.ws();
    const props = this.text[this.pos] === '{' ? this.props() : new Map<string, TckValue>();
    this.expect(']');
    return { k: 'rel', type, props };
  }

  private path(): TckValue {
    this.expect('<');
    const start = this.node();
    const steps: TckPathStep[] = [];
    this.ws();
    while (this.text[this.pos] === '-' || this.text[this.pos] === '<') {
      const backward = this.eat('<');
      this.expect('-');
      const rel = this.rel();
      this.expect('-');
      const forward = this.eat('>');
      if (forward === backward) this.fail('path direction');
      steps.push({ rel, forward, node: this.node() });
      this.ws();
    }
    this.expect('>');
    return { k: 'path', start, steps };
  }

  private ws(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos] ?? '')) this.pos++;
  }

  private eat(token: string): boolean {
    this.ws();
    if (this.text.startsWith(token, this.pos)) {
      this.pos += token.length;
      return true;
    }
    return false;
  }

  private expect(token: string): void {
    if (!this.eat(token)) this.fail(`'${token}'`);
  }

  private fail(what: string): never {
    throw new Error(`TCK value: expected ${what} at ${this.pos} in ${JSON.stringify(this.text)}`);
  }
}
