import type { ConnectionState, OpenResult } from './connection-state.js';
import { streamSummary } from '../summary-metadata.js';

/** Records pulled from the engine per step; output is flushed between steps (backpressure). */
const PULL_BATCH = 1000;
/** Output bytes buffered before waiting for the socket to drain. */
const FLUSH_THRESHOLD = 256 * 1024;

/** Thrown out of a stream loop when a RESET interrupts it. */
export class StreamInterrupted extends Error {
  constructor() {
    super('Interrupted by RESET');
    this.name = 'StreamInterrupted';
  }
}

/**
 * Streams up to `n` records (-1: all) as RECORD messages, then a SUCCESS: `has_more` when the
 * result goes on, else the summary. Returns true when the result is finished.
 * With `keep` false (DISCARD) the records are dropped instead of sent.
 */
export async function streamRecords(state: ConnectionState, result: OpenResult, n: number, keep: boolean): Promise<boolean> {
  if (!keep && n < 0) {
    const summary = await result.stream.discard();
    state.success(finalMetadata(state, result, summary));
    return true;
  }
  let remaining = n < 0 ? Number.POSITIVE_INFINITY : n;
  let hasMore = true;
  while (remaining > 0 && hasMore) {
    if (state.interrupted) throw new StreamInterrupted();
    const batch = await result.stream.pull(Math.min(remaining, PULL_BATCH));
    hasMore = batch.hasMore;
    remaining -= batch.records.length;
    if (keep) {
      for (const record of batch.records) state.record(record);
      if (batch.records.length > 0) {
        result.streamedRecords = true;
        if (state.debugEnabled) state.log(`S: RECORD * ${batch.records.length}`);
      }
    }
    if (state.writer.size >= FLUSH_THRESHOLD) await state.services.flush();
  }
  if (hasMore) {
    state.success({ has_more: true });
    return false;
  }
  state.success(finalMetadata(state, result, result.stream.summary()));
  return true;
}

function finalMetadata(state: ConnectionState, result: OpenResult, summary: ReturnType<OpenResult['stream']['summary']>) {
  const bookmark = result.autoCommit ? (result.stream.bookmark ?? result.session.lastBookmark() ?? undefined) : undefined;
  return streamSummary(
    summary,
    state.features,
    { hadKeys: result.stream.keys.length > 0, streamedRecords: result.streamedRecords },
    bookmark,
    result.filter,
  );
}
