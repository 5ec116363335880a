/**
 * Resumable batched imports. A batched import (`batchSize` > 0) of files is identified by its key:
 * a SHA-256 over the files' contents (and paths) and every option that shapes the graph (format,
 * CSV dialect, mode, id type, labels and types of the inputs). Each batch commits, in its own
 * transaction, a checkpoint under that key (`storage/import-checkpoint.ts`): where the import
 * stands (input, line), its totals, and the batch's delta (the node ids it assigned to the files'
 * ids, the bad entries it reported). The last batch deletes the checkpoint.
 *
 * After a failure or a killed process, running the same import again finds the checkpoint: it is
 * refused unless `resume` is set, and with it the import skips every row up to the recorded line,
 * restores the id map and totals, and continues, so it ends with the graph an uninterrupted
 * import makes. The error-handling options (`onError`, `badTolerance`, the skip flags) are not
 * part of the key: an import stopped by a bad entry resumes with a higher tolerance. Standard
 * input cannot be read twice, so it is never resumable.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import type { StoredCheckpoint } from '../storage/index.js';
import type { ImportRowError } from './import-sink.js';

/** What identifies an import's graph: its inputs and the options that shape what they become. */
export interface ImportIdentity {
  readonly format: string;
  readonly inputs: readonly { file: string; headerFile?: string; kind?: string; labels?: readonly string[]; type?: string }[];
  readonly shape: Readonly<Record<string, string | undefined>>;
}

/** Where an import stands: the last row (input index, file, line) whose batch committed. */
export interface ImportPosition {
  readonly input: number;
  readonly file: string;
  readonly line: number;
}

/** The state a checkpoint records (JSON in the database). */
export interface CheckpointState extends ImportPosition {
  /** The files of the import, for messages. */
  readonly files: readonly string[];
  readonly startedAt: string;
  /** The first relationship id of the import (relationships from it on are its own). */
  readonly firstRelationshipId: string;
  readonly batches: number;
  readonly nodes: number;
  readonly relationships: number;
  readonly properties: number;
  readonly labels: number;
  readonly badEntries: number;
}

/** What one batch adds: the node ids it assigned (id space, file id, node id) and the bad entries it reported. */
export interface CheckpointDelta {
  readonly ids: [string, string, number][];
  readonly errors: ImportRowError[];
}

/** An unfinished import found in a database. */
export interface FoundCheckpoint {
  readonly key: string;
  readonly state: CheckpointState;
}

/** Thrown when a recorded unfinished import and the requested one do not fit; the message says what to do. */
export class ImportResumeError extends Error {
  override name = 'ImportResumeError';
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The key of an import, or null when it reads standard input (which cannot be read again).
 * Reads every input file once (its SHA-256).
 */
export async function importKey(identity: ImportIdentity): Promise<string | null> {
  if (identity.inputs.some((i) => i.file === '-' || i.headerFile === '-')) return null;
  const digests = new Map<string, Promise<string>>();
  const digest = (file: string) => {
    const path = resolve(file);
    let known = digests.get(path);
    if (known === undefined) digests.set(path, (known = sha256OfFile(path)));
    return known;
  };
  const inputs = await Promise.all(
    identity.inputs.map(async (i) => ({
      file: resolve(i.file),
      sha256: await digest(i.file),
      header: i.headerFile === undefined ? null : { file: resolve(i.headerFile), sha256: await digest(i.headerFile) },
      kind: i.kind ?? null,
      labels: i.labels ?? null,
      type: i.type ?? null,
    })),
  );
  const text = JSON.stringify({ format: identity.format, inputs, shape: identity.shape });
  return createHash('sha256').update(text).digest('hex');
}

/** Parses the checkpoints a database holds. */
export function parseCheckpoints(stored: readonly StoredCheckpoint[]): FoundCheckpoint[] {
  return stored.map(({ key, state }) => ({ key, state: JSON.parse(state) as CheckpointState }));
}

function describe(state: CheckpointState): string {
  return (
    `${state.batches} batch${state.batches === 1 ? '' : 'es'} committed (${state.nodes} nodes, ${state.relationships} relationships), ` +
    `through ${state.file}:${state.line}; started ${state.startedAt}`
  );
}

/** The refusal of an import whose unfinished run is recorded, saying how to resume it. */
export function resumeRequired(database: string, found: FoundCheckpoint): ImportResumeError {
  return new ImportResumeError(
    `Database '${database}' holds an unfinished import of these files: ${describe(found.state)}. ` +
      'Run the same command with --resume to continue it from there (it ends with the graph an uninterrupted import makes).',
  );
}

/** The refusal of `resume` when the database records no unfinished import of these files. */
export function nothingToResume(database: string, others: readonly FoundCheckpoint[]): ImportResumeError {
  const listed = others.map((o) => `\n  ${o.state.files.join(', ')}: ${describe(o.state)}`).join('');
  return new ImportResumeError(
    `Database '${database}' holds no unfinished import of these files with these options` +
      (others.length === 0 ? '.' : ` (files whose content changed since are other files). Unfinished imports it holds:${listed}`),
  );
}

/** A note for the refusal of a full import into a non-empty database that holds unfinished imports. */
export function unfinishedNote(others: readonly FoundCheckpoint[]): string {
  if (others.length === 0) return '';
  const listed = others.map((o) => `${o.state.files.join(', ')} (${describe(o.state)})`).join('; ');
  return ` It holds an unfinished import of ${listed}: run that import again with --resume to finish it.`;
}

/** The refusal of a full import's resume when the database no longer holds exactly what the import committed. */
export function changedSince(database: string, state: CheckpointState, now: { nodes: number; relationships: number }): ImportResumeError {
  return new ImportResumeError(
    `Database '${database}' changed since its unfinished import stopped: it holds ${now.nodes} nodes and ${now.relationships} relationships, ` +
      `the import committed ${state.nodes} and ${state.relationships}. A full import resumes only into what it left.`,
  );
}

/** Totals of an import at a batch boundary. */
export interface ImportTotals {
  readonly batches: number;
  readonly nodes: number;
  readonly relationships: number;
  readonly properties: number;
  readonly labels: number;
  readonly badEntries: number;
}

/** Collects a running import's batch deltas and turns them into the checkpoint each batch commits. */
export class CheckpointTracker {
  private ids: [string, string, number][] = [];
  private errors: ImportRowError[] = [];
  constructor(
    readonly key: string,
    private readonly files: readonly string[],
    private readonly from: { readonly startedAt: string; readonly firstRelationshipId: bigint },
  ) {}

  /** A node of the current batch got node id `id` for the file id `external` of id space `space`. */
  noteId(space: string, external: string, id: number): void {
    this.ids.push([space, external, id]);
  }

  /** The current batch reported a bad entry. */
  noteError(row: ImportRowError): void {
    this.errors.push(row);
  }

  /** The checkpoint the current batch commits (its delta is then forgotten). */
  write(position: ImportPosition, totals: ImportTotals): { key: string; batch: number; state: string; delta: string } {
    const state: CheckpointState = {
      ...position,
      ...totals,
      files: this.files,
      startedAt: this.from.startedAt,
      firstRelationshipId: this.from.firstRelationshipId.toString(),
    };
    const delta: CheckpointDelta = { ids: this.ids, errors: this.errors };
    this.ids = [];
    this.errors = [];
    return { key: this.key, batch: totals.batches, state: JSON.stringify(state), delta: JSON.stringify(delta) };
  }
}

/** The deltas of a checkpoint's batches. */
export function parseDeltas(deltas: readonly string[]): CheckpointDelta[] {
  return deltas.map((d) => JSON.parse(d) as CheckpointDelta);
}
