/**
 * The result model: one WorkloadResult per workload (and variant), holding every adapter's figure,
 * the answer-agreement check and the target verdict. Serialised as-is into bench/results/<date>.json.
 */
import type { Timing } from './measure.js';
import type { Role } from './subject.js';

/** One adapter's outcome on one workload. */
export interface AdapterResult {
  readonly adapter: string;
  readonly role: Role;
  readonly status: 'ok' | 'unavailable' | 'pending' | 'failed';
  readonly note?: string;
  readonly timing?: Timing;
}

/** One target clause: ours ≥ factor × the named adapter (or the best peer), in throughput. */
export interface Requirement {
  readonly against: string;
  readonly factor: number;
}

/** A requirement evaluated. */
export interface RequirementOutcome extends Requirement {
  /** Throughput ratio (wall clock, includes preemption on a shared machine): the verdict uses it. */
  readonly ratio: number | null;
  /** The same ratio from median latencies (1/p50), less sensitive to machine load; informational. */
  readonly medianRatio: number | null;
  readonly pass: boolean | null;
}

/** Everything measured for one workload. */
export interface WorkloadResult {
  readonly id: string;
  readonly title: string;
  /** What one "op" is (query, row, document...). */
  readonly unit: string;
  readonly target: string;
  readonly results: AdapterResult[];
  readonly agreement: { readonly checked: boolean; readonly ok: boolean; readonly detail: string };
  readonly requirements: RequirementOutcome[];
  /** Extra checks beyond ratios (p99 bounds, RSS, plans). */
  readonly checks: { readonly name: string; readonly pass: boolean; readonly detail: string }[];
  /** true/false when ours was measured against something, null when pending or informational. */
  readonly pass: boolean | null;
  readonly pending?: string;
  readonly plan?: string;
}

/** The best peer's name, used in requirements. */
export const BEST_PEER = 'best peer';

/** Builds one WorkloadResult. */
export class WorkloadRecorder {
  private readonly results: AdapterResult[] = [];
  private readonly answers = new Map<string, string>();
  private readonly checks: { name: string; pass: boolean; detail: string }[] = [];
  private pendingReason: string | undefined;
  private planText: string | undefined;

  constructor(
    readonly id: string,
    readonly title: string,
    readonly unit: string,
    readonly target: string,
    private readonly requirements: readonly Requirement[],
  ) {}

  ok(adapter: string, role: Role, timing: Timing, note?: string): void {
    this.results.push({ adapter, role, status: 'ok', timing, ...(note ? { note } : {}) });
  }

  unavailable(adapter: string, role: Role, note: string): void {
    this.results.push({ adapter, role, status: 'unavailable', note });
  }

  failed(adapter: string, role: Role, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.results.push({ adapter, role, status: 'failed', note: message.split('\n')[0].slice(0, 300) });
  }

  /** Marks graphdb's side as pending (feature not landed), with the reason. */
  pending(adapter: string, reason: string): void {
    this.pendingReason = reason;
    this.results.push({ adapter, role: 'ours', status: 'pending', note: reason });
  }

  /** Records an adapter's canonical answer on the sample, for the agreement check. */
  answer(adapter: string, value: unknown): void {
    this.answers.set(
      adapter,
      JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)),
    );
  }

  check(name: string, pass: boolean, detail: string): void {
    this.checks.push({ name, pass, detail });
  }

  plan(text: string): void {
    this.planText = text;
  }

  finish(): WorkloadResult {
    const agreement = this.agreement();
    const ours = this.results.find((r) => r.role === 'ours' && r.status === 'ok');
    const requirements = this.requirements.map((req) => this.evaluate(req, ours));
    let pass: boolean | null = null;
    if (ours && (requirements.length > 0 || this.checks.length > 0 || agreement.checked)) {
      pass = agreement.ok && this.checks.every((c) => c.pass) && requirements.every((r) => r.pass !== false);
    }
    return {
      id: this.id,
      title: this.title,
      unit: this.unit,
      target: this.target,
      results: this.results,
      agreement,
      requirements,
      checks: this.checks,
      pass,
      ...(this.pendingReason && !ours ? { pending: this.pendingReason } : {}),
      ...(this.planText ? { plan: this.planText } : {}),
    };
  }

  private agreement(): WorkloadResult['agreement'] {
    if (this.answers.size < 2) {
      return { checked: false, ok: true, detail: this.answers.size ? 'only one adapter answered' : 'no sample' };
    }
    const groups = new Map<string, string[]>();
    for (const [adapter, a] of this.answers) groups.set(a, [...(groups.get(a) ?? []), adapter]);
    if (groups.size === 1) return { checked: true, ok: true, detail: `${this.answers.size} adapters agree` };
    const detail = [...groups.entries()].map(([a, names]) => `${names.join('+')}: ${a.slice(0, 120)}`).join(' | ');
    return { checked: true, ok: false, detail: `DISAGREE ${detail}` };
  }

  private evaluate(req: Requirement, ours: AdapterResult | undefined): RequirementOutcome {
    const measured = this.results.filter((r) => r.status === 'ok' && r.timing);
    const base =
      req.against === BEST_PEER
        ? measured.filter((r) => r.role === 'peer').sort((a, b) => b.timing!.opsPerSec - a.timing!.opsPerSec)[0]
        : measured.find((r) => r.adapter === req.against);
    if (!ours?.timing || !base?.timing) return { ...req, ratio: null, medianRatio: null, pass: null };
    const ratio = ours.timing.opsPerSec / base.timing.opsPerSec;
    const medians = Number.isFinite(ours.timing.p50Ms) && Number.isFinite(base.timing.p50Ms) && ours.timing.p50Ms > 0;
    return { ...req, ratio, medianRatio: medians ? base.timing.p50Ms / ours.timing.p50Ms : null, pass: ratio >= req.factor };
  }
}
