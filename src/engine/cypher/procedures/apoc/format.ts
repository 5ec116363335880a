/**
 * Java's `String.format` for the conversions APOC messages and `apoc.text.format` use:
 * `%s`, `%d`, `%f` (with precision), `%x`, `%b`, `%n`, `%%` and explicit indexes (`%1$s`).
 */
import { cypherToString, valueText } from '../../../values/to-string.js';
import type { CypherValue } from '../../../values/types.js';
import { illegalArgument } from './define.js';
import { isMap } from '../../../values/kinds.js';

/** The text of a value as Java's `toString` gives it for a format argument. */
export function javaText(v: CypherValue | undefined): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(1) : String(v);
  if (Array.isArray(v)) return `[${v.map((x: CypherValue) => javaText(x)).join(', ')}]`;
  if (isMap(v)) return `{${[...v].map(([k, x]) => `${k}=${javaText(x)}`).join(', ')}}`;
  return cypherToString(v) ?? valueText(v);
}

/** Formats `template` with `params` as `String.format` does. */
export function javaFormat(template: string, params: readonly CypherValue[]): string {
  let next = 0;
  return template.replace(
    /%(\d+\$)?([-#+ 0,(]*)(\d+)?(\.\d+)?([sSdfxXbBn%eEc])/g,
    (_m, index: string | undefined, flags: string, width: string | undefined, precision: string | undefined, conv: string) => {
      if (conv === '%') return '%';
      if (conv === 'n') return '\n';
      const arg = index ? params[Number(index.slice(0, -1)) - 1] : params[next++];
      let out: string;
      switch (conv) {
        case 'd':
          if (typeof arg !== 'bigint' && arg !== null && arg !== undefined)
            throw illegalArgument(`d != ${typeof arg === 'number' ? 'java.lang.Double' : 'java.lang.String'}`);
          out = arg === null || arg === undefined ? 'null' : flags.includes(',') ? arg.toLocaleString('en-US') : arg.toString();
          break;
        case 'f':
        case 'e':
        case 'E': {
          const n = typeof arg === 'bigint' ? Number(arg) : typeof arg === 'number' ? arg : null;
          const digits = precision ? Number(precision.slice(1)) : 6;
          out = n === null ? 'null' : conv === 'f' ? n.toFixed(digits) : n.toExponential(digits);
          break;
        }
        case 'x':
        case 'X':
          out = typeof arg === 'bigint' ? (arg < 0n ? (arg + 2n ** 64n).toString(16) : arg.toString(16)) : javaText(arg);
          if (conv === 'X') out = out.toUpperCase();
          break;
        case 'b':
        case 'B':
          out = String(arg !== null && arg !== undefined && arg !== false);
          break;
        case 'S':
          out = javaText(arg).toUpperCase();
          break;
        default:
          out = javaText(arg);
          if (precision) out = out.slice(0, Number(precision.slice(1)));
      }
      if (width && out.length < Number(width))
        out = flags.includes('-') ? out.padEnd(Number(width)) : out.padStart(Number(width), flags.includes('0') ? '0' : ' ');
      return out;
    },
  );
}
