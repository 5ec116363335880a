import type { VariableSymbol } from './context.js';

/**
 * Variables visible at one point of a query. Clause-level scopes are flat; expressions that
 * introduce variables (comprehensions, quantifiers, reduce, subqueries) use child scopes.
 */
export class Scope {
  private readonly own = new Map<string, VariableSymbol>();

  constructor(
    private readonly parent: Scope | null = null,
    symbols: Iterable<VariableSymbol> = [],
  ) {
    for (const symbol of symbols) this.own.set(symbol.name, symbol);
  }

  /** The symbol called `name`, searching outwards. */
  lookup(name: string): VariableSymbol | undefined {
    return this.own.get(name) ?? this.parent?.lookup(name);
  }

  /** Adds or replaces a symbol in this scope. */
  declare(symbol: VariableSymbol): void {
    this.own.set(symbol.name, symbol);
  }

  /** A scope nested in this one. */
  child(): Scope {
    return new Scope(this);
  }

  /** Every visible symbol, inner ones shadowing outer ones, in declaration order. */
  symbols(): VariableSymbol[] {
    const result = new Map<string, VariableSymbol>();
    for (const symbol of this.parent?.symbols() ?? []) result.set(symbol.name, symbol);
    for (const symbol of this.own.values()) result.set(symbol.name, symbol);
    return [...result.values()];
  }

  /** Every visible variable name. */
  names(): string[] {
    return this.symbols().map((symbol) => symbol.name);
  }

  /** A flat copy (no parent) of everything visible. */
  flatten(): Scope {
    return new Scope(null, this.symbols());
  }
}
