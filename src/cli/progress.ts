/**
 * A one-line progress display for long imports on a terminal: percent, rows, rate and ETA (and
 * batches committed), redrawn in place on stderr. By default silent when stderr is not a TTY;
 * asked for explicitly there, it writes one plain line per update (for logs and scripts).
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
    `${p.nodes} nodes, ${p.relationships} rels, ${p.errors} bad  ${Math.round(rate)} rows/s  ETA ${duration(eta)}` +
    (p.batches > 0 ? `  ${p.batches} ${p.batches === 1 ? 'batch' : 'batches'} committed` : '')
  );
}

/** When progress is shown: `auto` on a terminal only, `always` also as plain lines elsewhere, `never`. */
export type ProgressMode = 'auto' | 'always' | 'never';

/** A progress reporter writing to stderr: redrawn in place on a terminal, plain lines elsewhere (`always`). */
export function terminalProgress(mode: ProgressMode): { update: (p: ImportProgress) => void; done: () => void } {
  const tty = process.stderr.isTTY === true;
  const shown = mode === 'always' || (mode === 'auto' && tty);
  let drawn = false;
  return {
    update: (p) => {
      if (!shown) return;
      if (!tty) {
        process.stderr.write(`${progressLine(p)}\n`);
        return;
      }
      process.stderr.write(`\r\x1b[2K${progressLine(p)}`);
      drawn = true;
    },
    done: () => {
      if (drawn) process.stderr.write('\n');
    },
  };
}
