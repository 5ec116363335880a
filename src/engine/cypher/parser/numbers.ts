import { syntaxError } from '../lexer/syntax-error.js';
import type { Token } from '../lexer/token.js';

const maxMagnitude = 1n << 63n;

/**
 * Converts an integer token (`123`, `1_000`, `0x1F`, `0o17`, legacy octal `017`) to a 64-bit
 * bigint, negated when `negative`. Out of range → SyntaxError with detail `IntegerOverflow`.
 */
export function parseIntegerText(text: string, token: Token, negative: boolean): bigint {
  const digits = token.value.replace(/_/g, '');
  let magnitude: bigint;
  if (/^0[xX]/.test(digits)) magnitude = BigInt(digits);
  else if (/^0[oO]/.test(digits)) magnitude = BigInt('0o' + digits.slice(2));
  else if (/^0[0-7]+$/.test(digits)) magnitude = BigInt('0o' + digits.slice(1));
  else if (/^[0-9]+$/.test(digits)) magnitude = BigInt(digits);
  else throw syntaxError(text, token.start, `Invalid input '${token.value}': expected a number`, 'InvalidNumberLiteral');
  if (magnitude > maxMagnitude || (!negative && magnitude === maxMagnitude)) {
    const shown = (negative ? '-' : '') + token.value;
    throw syntaxError(text, token.start, `integer is too large: ${shown}`, 'IntegerOverflow');
  }
  return negative ? -magnitude : magnitude;
}

/** Converts a float token; a value beyond the double range → `FloatingPointOverflow`. */
export function parseFloatText(text: string, token: Token): number {
  const value = Number(token.value.replace(/_/g, ''));
  if (!Number.isFinite(value)) {
    throw syntaxError(text, token.start, `floating point number is too large: ${token.value}`, 'FloatingPointOverflow');
  }
  return value;
}
