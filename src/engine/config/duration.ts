/**
 * Durations in configuration are written Go-style (`50ms`, `30s`, `1h30m`, `168h`, `0s`) and held as
 * milliseconds. A bare number is read as milliseconds.
 */

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

const PART = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d)/y;

/** Parses a duration text into milliseconds; returns null when the text is not a duration. */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (trimmed.length === 0) return null;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < trimmed.length) {
    const start = PART.lastIndex;
    const match = PART.exec(trimmed);
    if (match === null || match.index !== start) return null;
    total += Number(match[1]) * (UNIT_MS[match[2]!] ?? 0);
  }
  return total;
}

/** Formats milliseconds as a compact duration (`1h2m3.5s`, `50ms`), the inverse of parseDuration. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)}ms`;
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = (ms % 60_000) / 1_000;
  let text = '';
  if (hours > 0) text += `${hours}h`;
  if (minutes > 0) text += `${minutes}m`;
  if (seconds > 0 || text === '') text += `${Number(seconds.toFixed(3))}s`;
  return text;
}
