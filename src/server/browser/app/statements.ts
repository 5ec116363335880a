/**
 * Multi-statement scripts: the editor's text split at top-level semicolons (not inside quotes,
 * backquoted names or comments), blank statements dropped; and the parameter text parsed.
 */

/** The statements of a script, in order, trimmed. */
export function splitStatements(script: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  while (i < script.length) {
    const c = script[i];
    const next = script[i + 1];
    if (c === "'" || c === '"' || c === '`') {
      i += 1;
      while (i < script.length && script[i] !== c) i += script[i] === '\\' && c !== '`' ? 2 : 1;
      i += 1;
    } else if (c === '/' && next === '/') {
      while (i < script.length && script[i] !== '\n') i += 1;
    } else if (c === '/' && next === '*') {
      const end = script.indexOf('*/', i + 2);
      i = end < 0 ? script.length : end + 2;
    } else if (c === ';') {
      statements.push(script.slice(start, i));
      i += 1;
      start = i;
    } else {
      i += 1;
    }
  }
  statements.push(script.slice(start));
  return statements.map((s) => s.trim()).filter((s) => s.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '').trim() !== '');
}

/** An EXPLAIN or PROFILE statement. */
export function planMode(statement: string): 'EXPLAIN' | 'PROFILE' | null {
  const match = /^\s*(EXPLAIN|PROFILE)\b/i.exec(statement);
  return match ? (match[1]!.toUpperCase() as 'EXPLAIN' | 'PROFILE') : null;
}
