/**
 * The pressure band controller of one database (docs/mvcc-lifecycle.md):
 * `normal` / `high` / `critical` from the pinned-bytes pressure, with thresholds
 * high_enter = max(5 GiB, 15 % of the data directory's free space), critical_enter =
 * max(20 GiB, 35 %), exits at 80 % of the entry threshold; a transition happens only after its
 * condition held for the debounce time (30 s to enter, 120 s to leave). The operator may set the
 * entry thresholds (`mvcc.pressure_high_enter`, `mvcc.pressure_critical_enter`).
 *
 * Emergency mode: while `critical`, the debt-growth slope over the recent evaluations is
 * estimated (least squares, bytes per second); a positive slope above `EMERGENCY_SLOPE` turns
 * emergency on (raised compaction budget, no long-snapshot admission, debt-first ordering). It
 * turns off when the band leaves `critical` or the slope is no longer positive.
 */

/** Pressure bands. */
export type PressureBand = 'normal' | 'high' | 'critical';

const GIB = 1024 ** 3;
/** Sustain time before entering a higher band. */
export const ENTER_DEBOUNCE_MS = 30_000;
/** Sustain time before leaving a band downwards. */
export const EXIT_DEBOUNCE_MS = 120_000;
/** Debt samples the slope is fitted over. */
const SLOPE_WINDOW = 6;
/** Debt growth (bytes per second) that counts as growing. */
export const EMERGENCY_SLOPE = 1;

/** The four thresholds in bytes. */
export interface PressureThresholds {
  readonly highEnter: number;
  readonly highExit: number;
  readonly criticalEnter: number;
  readonly criticalExit: number;
}

/** Operator overrides of the entry thresholds (0: the formula of docs/mvcc-lifecycle.md). */
export interface ThresholdOverrides {
  readonly highEnter?: number;
  readonly criticalEnter?: number;
}

/** The band thresholds for a data directory with `freeBytes` free. */
export function pressureThresholds(freeBytes: number, overrides: ThresholdOverrides = {}): PressureThresholds {
  const highEnter =
    overrides.highEnter !== undefined && overrides.highEnter > 0 ? overrides.highEnter : Math.max(5 * GIB, 0.15 * freeBytes);
  const criticalEnter =
    overrides.criticalEnter !== undefined && overrides.criticalEnter > 0
      ? Math.max(overrides.criticalEnter, highEnter)
      : Math.max(20 * GIB, 0.35 * freeBytes, highEnter);
  return { highEnter, highExit: 0.8 * highEnter, criticalEnter, criticalExit: 0.8 * criticalEnter };
}

/** The controller's view after an evaluation. */
export interface PressureState {
  readonly band: PressureBand;
  readonly pending: { readonly target: PressureBand; readonly since: number } | null;
  /** Since when the band is what it is (ms). */
  readonly bandSince: number;
  readonly emergency: boolean;
  /** Fitted debt growth in bytes per second (0 with too few samples). */
  readonly debtSlope: number;
}

/** Band and emergency state of one database. */
export class PressureController {
  private band: PressureBand = 'normal';
  private bandSince: number;
  private pending: { target: PressureBand; since: number } | null = null;
  private emergency = false;
  private slope = 0;
  private readonly debt: [number, number][] = [];

  constructor(now: number) {
    this.bandSince = now;
  }

  /** The state as of the last evaluation. */
  get state(): PressureState {
    return { band: this.band, pending: this.pending, bandSince: this.bandSince, emergency: this.emergency, debtSlope: this.slope };
  }

  /** Evaluates `pinnedBytes` against `thresholds` at `now`; `debtBytes` feeds the emergency slope. */
  evaluate(pinnedBytes: number, thresholds: PressureThresholds, now: number, debtBytes?: number): PressureState {
    let target: PressureBand | null = null;
    if (this.band === 'normal' && pinnedBytes >= thresholds.highEnter) target = 'high';
    else if (this.band === 'high' && pinnedBytes >= thresholds.criticalEnter) target = 'critical';
    else if (this.band === 'high' && pinnedBytes < thresholds.highExit) target = 'normal';
    else if (this.band === 'critical' && pinnedBytes < thresholds.criticalExit) target = 'high';
    if (target === null) {
      this.pending = null;
    } else {
      if (this.pending?.target !== target) this.pending = { target, since: now };
      const debounce = rank(target) > rank(this.band) ? ENTER_DEBOUNCE_MS : EXIT_DEBOUNCE_MS;
      if (now - this.pending.since >= debounce) {
        this.band = target;
        this.bandSince = now;
        this.pending = null;
      }
    }
    if (debtBytes !== undefined) {
      this.debt.push([now, debtBytes]);
      if (this.debt.length > SLOPE_WINDOW) this.debt.shift();
      this.slope = fitSlope(this.debt);
    }
    this.emergency = this.band === 'critical' && this.slope > EMERGENCY_SLOPE;
    return this.state;
  }
}

/** Least-squares slope of (time ms, bytes) samples, in bytes per second. */
function fitSlope(points: readonly [number, number][]): number {
  if (points.length < 3) return 0;
  const n = points.length;
  const t0 = points[0]![0];
  let sx = 0;
  let sy = 0;
  for (const [t, y] of points) {
    sx += (t - t0) / 1000;
    sy += y;
  }
  const mx = sx / n;
  const my = sy / n;
  let num = 0;
  let den = 0;
  for (const [t, y] of points) {
    const dx = (t - t0) / 1000 - mx;
    num += dx * (y - my);
    den += dx * dx;
  }
  return den === 0 ? 0 : num / den;
}

function rank(band: PressureBand): number {
  return band === 'normal' ? 0 : band === 'high' ? 1 : 2;
}
