/**
 * A one-line progress display for long imports on a terminal: percent, rows, rate and ETA,
 * redrawn in place on stderr. Silent when stderr is not a TTY.
 */
import type { ImportProgress } from '../engine/transfer/index.js';

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--';
  const s = Math.round(seconds);
  return s >= 3600 ? `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m` : s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s}s`;
}

/** Text of one progress line. */
export function progressLine(p: ImportProgress): string {
  const fraction = p.totalBytes === 0 ? 1 : Math.min(1, p.bytesRead / p.totalBytes);
  const seconds = p.elapsedMs / 1000;
  const rows = p.nodes + p.relationships;
  const rate = seconds > 0 ? rows / seconds : 0;
  const eta = fraction > 0 ? seconds / fraction - seconds : Infinity;
  const width = 24;
  const filled = Math.round(fraction * width);
  return (
    `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(1)}%  ` +
    `${p.nodes} nodes, ${p.relationships} rels, ${p.errors} bad  ${Math.round(rate)} rows/s  ETA ${duration(eta)}`
  );
}

/** A progress reporter writing to stderr when it is a terminal. */
export function terminalProgress(enabled: boolean): { update: (p: ImportProgress) => void; done: () => void } {
  const tty = enabled && process.stderr.isTTY === true;
  let drawn = false;
  return {
    update: (p) => {
      if (!tty) return;
      process.stderr.write(`\r\x1b[2K${progressLine(p)}`);
      drawn = true;
    },
    done: () => {
      if (drawn) process.stderr.write('\n');
    },
  };
}
