/**
 * Reading a model's tool arguments (JSON) into Cypher parameters, and writing memories back as
 * compact JSON sized for a model's context.
 */
import type { CypherValue } from '../values/types.js';
import { cypherToJson, jsonToCypher, type JsonValue } from './json-values.js';

/** A tool failure the model should see (bad arguments, not found, refused). */
export class ToolFailure extends Error {}

/** Tool arguments as parsed JSON. */
export type Args = { readonly [key: string]: unknown };

/** Characters of a memory's content shown in lists (full content on recall by id). */
export const CONTENT_PREVIEW_CHARS = 280;

export function requiredString(args: Args, key: string): string {
  const value = args[key];
  if (typeof value !== 'string' || value.trim() === '') throw new ToolFailure(`'${key}' must be a non-empty string`);
  return value;
}

export function optionalString(args: Args, key: string): string | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ToolFailure(`'${key}' must be a string`);
  return value.trim() === '' ? undefined : value.trim();
}

export function optionalStrings(args: Args, key: string): string[] {
  const value = args[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    throw new ToolFailure(`'${key}' must be a list of strings`);
  return value.map((item) => item.trim()).filter((item) => item !== '');
}

export function optionalBoolean(args: Args, key: string): boolean | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ToolFailure(`'${key}' must be true or false`);
  return value;
}

/** An integer argument clamped to `min..max`, or `fallback` when absent. */
export function boundedInteger(args: Args, key: string, fallback: number, min: number, max: number): number {
  const value = args[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new ToolFailure(`'${key}' must be an integer`);
  return Math.min(Math.max(value, min), max);
}

export function optionalNumber(args: Args, key: string, min: number, max: number): number | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
    throw new ToolFailure(`'${key}' must be a number between ${min} and ${max}`);
  return value;
}

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** Property values a model may set: scalars and lists of scalars. */
export function propertyMap(args: Args, key: string): Map<string, CypherValue> {
  const value = args[key];
  if (value === undefined || value === null) return new Map();
  if (typeof value !== 'object' || Array.isArray(value)) throw new ToolFailure(`'${key}' must be an object`);
  const map = new Map<string, CypherValue>();
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    if (!isScalar(item) && !(Array.isArray(item) && item.every(isScalar))) {
      throw new ToolFailure(`property '${name}' must be a string, number, boolean or a list of them`);
    }
    if (item !== null) map.set(name, jsonToCypher(item));
  }
  return map;
}

/** Query parameters from the model's JSON (any nesting). */
export function parameterMap(value: unknown): ReadonlyMap<string, CypherValue> {
  if (value === undefined || value === null) return new Map();
  if (typeof value !== 'object' || Array.isArray(value)) throw new ToolFailure("'params' must be an object");
  return jsonToCypher(value) as ReadonlyMap<string, CypherValue>;
}

/** A node reference: the Cypher predicate on `variable` and its parameter value. */
export function nodeRef(value: unknown, parameter: string, variable: string): { predicate: string; value: CypherValue } {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)
    return { predicate: `id(${variable}) = $${parameter}`, value: BigInt(value) };
  if (typeof value === 'string' && /^\d+$/.test(value)) return { predicate: `id(${variable}) = $${parameter}`, value: BigInt(value) };
  if (typeof value === 'string' && value !== '') return { predicate: `elementId(${variable}) = $${parameter}`, value };
  throw new ToolFailure(`'${parameter}' must be a memory id (integer) or an elementId (string)`);
}

/** Node ids (integers) of a list of references; element ids are not accepted in lists. */
export function idList(args: Args, key: string): bigint[] {
  const value = args[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ToolFailure(`'${key}' must be a list of memory ids`);
  return value.map((item) => {
    if (typeof item === 'number' && Number.isSafeInteger(item) && item >= 0) return BigInt(item);
    if (typeof item === 'string' && /^\d+$/.test(item)) return BigInt(item);
    throw new ToolFailure(`'${key}' must list integer memory ids`);
  });
}

/** A label or relationship type as a backtick-quoted Cypher identifier. */
export function quoted(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

/** The map projection every tool returns a memory with (`v` is the variable). */
export function memoryProjection(v: string): string {
  return (
    `{id: id(${v}), elementId: elementId(${v}), labels: labels(${v}), title: ${v}.title, type: ${v}.type, ` +
    `content: ${v}.content, tags: ${v}.tags, status: ${v}.status, priority: ${v}.priority, importance: ${v}.importance, ` +
    `created_at: toString(${v}.created_at), last_accessed: toString(${v}.last_accessed), ` +
    `access_count: ${v}.access_count, no_decay: ${v}.no_decay, decay: decayScore(${v})}`
  );
}

/** A memory as the tools return it. */
export type MemoryJson = { [key: string]: JsonValue };

/** A projected memory as JSON: nulls dropped, decay rounded, content cut unless `full`. */
export function memoryJson(value: CypherValue | undefined, full = false): MemoryJson {
  const json = cypherToJson(value ?? null);
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return {};
  const out: MemoryJson = {};
  for (const [key, item] of Object.entries(json)) {
    if (item === null) continue;
    if (key === 'decay' && typeof item === 'number') out[key] = Math.round(item * 1000) / 1000;
    else if (key === 'content' && typeof item === 'string' && !full && item.length > CONTENT_PREVIEW_CHARS) {
      out[key] = `${item.slice(0, CONTENT_PREVIEW_CHARS)}…`;
      out.content_truncated = true;
    } else out[key] = item;
  }
  if (Array.isArray(out.labels)) out.archived = out.labels.includes('Archived');
  return out;
}

/** A title from the content: its first line or sentence, at most 80 characters on a word boundary. */
export function deriveTitle(content: string): string {
  const firstLine = content.trim().split(/\r?\n/)[0] ?? '';
  const sentence = /^(.+?[.!?])(\s|$)/.exec(firstLine)?.[1] ?? firstLine;
  if (sentence.length <= 80) return sentence;
  const cut = sentence.slice(0, 80);
  const space = cut.lastIndexOf(' ');
  return `${space > 40 ? cut.slice(0, space) : cut}…`;
}

/** Epoch milliseconds of a `since` argument: an ISO date/time, or a duration back from `now` (`7d`, `12h`, `30m`). */
export function sinceMillis(since: string, now: number): number {
  const relative = /^(\d+(?:\.\d+)?)\s*(m|h|d|w)$/.exec(since.trim());
  if (relative !== null) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[relative[2] as 'm' | 'h' | 'd' | 'w'];
    return now - Number(relative[1]) * unit;
  }
  const parsed = Date.parse(since);
  if (Number.isNaN(parsed)) throw new ToolFailure(`'since' must be an ISO date/time or a duration such as 7d, 12h`);
  return parsed;
}
