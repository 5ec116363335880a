/**
 * The errors of the MVCC reader policy. Forced expiration (graceful cancel at the maximum
 * snapshot lifetime, hard expiry under sustained critical pressure) is one family:
 * `Neo.TransientError.Transaction.Outdated` — the snapshot the transaction reads is no longer
 * kept, and a retry in a new transaction succeeds, so drivers retry it. Refused admission of a
 * long snapshot under pressure is `Neo.TransientError.Request.ResourceExhaustion`.
 */
import { StatusCodes, TransientError } from '../../errors/index.js';

/** Why a reader was forced to end. */
export type ExpiryCause = 'max-lifetime' | 'hard-expiry';

/** The forced-expiration error of a snapshot reader. */
export class SnapshotExpired extends TransientError {
  constructor(
    readonly expiry: ExpiryCause,
    database: string,
    ageMs: number,
  ) {
    super(
      StatusCodes.Outdated,
      expiry === 'max-lifetime'
        ? `The snapshot of this transaction on database '${database}' was cancelled after ${Math.round(ageMs)} ms: it exceeded the maximum snapshot lifetime (mvcc.max_snapshot_lifetime). Retry in a new transaction.`
        : `The snapshot of this transaction on database '${database}' was expired after ${Math.round(ageMs)} ms under sustained critical MVCC history pressure. Retry in a new transaction.`,
    );
  }
}

/** A new long snapshot refused or rate-limited by the pressure band. */
export class SnapshotAdmissionRefused extends TransientError {
  constructor(database: string, band: string, reason: string) {
    super(
      StatusCodes.ResourceExhaustion,
      `A new long snapshot on database '${database}' was refused: MVCC history pressure is ${band} (${reason}). Retry later or use auto-commit statements.`,
    );
  }
}
