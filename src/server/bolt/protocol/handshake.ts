import { SUPPORTED_VERSIONS, isSupported, type BoltVersion } from './versions.js';

/**
 * The Bolt handshake.
 *
 * Terminology:
 * - The client opens with the magic preamble `60 60 B0 17` and four 4-byte proposals. A proposal
 *   reads `00 RR mm MM`: major `MM`, minor `mm` and a range `RR` meaning "minor down to mm - RR".
 * - Legacy answer: the server replies with the 4-byte version it picked (`00 00 00 00`: none).
 * - Manifest v1 (proposal `00 00 01 FF`, drivers from 5.7 on): the server replies `00 00 01 FF`,
 *   then a varint count, that many 4-byte version entries (ranges allowed) and a varint
 *   capability mask. The client answers with the 4-byte version it chose and its own varint mask.
 */
export const BOLT_MAGIC = 0x6060b017;
/** Length of the client's opening: the preamble and four proposals. */
export const HANDSHAKE_LENGTH = 20;
/** The proposal asking for handshake manifest v1. */
export const MANIFEST_V1 = 0x000001ff;

/** A client proposal decoded from its 4 bytes. */
export interface VersionProposal {
  readonly major: number;
  readonly minor: number;
  readonly range: number;
}

/** What the server answers to the opening 20 bytes. */
export type HandshakeDecision =
  | { readonly kind: 'version'; readonly version: BoltVersion; readonly reply: Buffer }
  | { readonly kind: 'manifest'; readonly reply: Buffer }
  | { readonly kind: 'none'; readonly reply: Buffer }
  | { readonly kind: 'invalid' };

/** Decodes one 4-byte proposal. */
export function decodeProposal(word: number): VersionProposal {
  return { major: word & 0xff, minor: (word >>> 8) & 0xff, range: (word >>> 16) & 0xff };
}

/** The best version the server supports within a proposal, or null. */
export function pickFromProposal(proposal: VersionProposal, supported: readonly BoltVersion[] = SUPPORTED_VERSIONS): BoltVersion | null {
  for (const version of supported) {
    if (version.major === proposal.major && version.minor <= proposal.minor && version.minor >= proposal.minor - proposal.range) {
      return version;
    }
  }
  return null;
}

/** Encodes a version as the 4-byte word `00 00 mm MM`. */
export function encodeVersion(version: BoltVersion, range = 0): number {
  return ((range & 0xff) << 16) | ((version.minor & 0xff) << 8) | (version.major & 0xff);
}

/**
 * Answers the client's opening: the first proposal (in the client's order of preference) with a
 * version in common wins; a manifest request wins when offered before any plain version matches.
 */
export function negotiate(opening: Uint8Array, supported: readonly BoltVersion[] = SUPPORTED_VERSIONS): HandshakeDecision {
  if (opening.length < HANDSHAKE_LENGTH) return { kind: 'invalid' };
  const view = new DataView(opening.buffer, opening.byteOffset, HANDSHAKE_LENGTH);
  if (view.getUint32(0) !== BOLT_MAGIC) return { kind: 'invalid' };
  for (let slot = 0; slot < 4; slot++) {
    const word = view.getUint32(4 + slot * 4);
    if (word === MANIFEST_V1) return { kind: 'manifest', reply: manifestReply(supported) };
    const version = pickFromProposal(decodeProposal(word), supported);
    if (version) return { kind: 'version', version, reply: word32(encodeVersion(version)) };
  }
  return { kind: 'none', reply: word32(0) };
}

/** The manifest v1 reply: marker, the supported versions as ranges, no capabilities. */
export function manifestReply(supported: readonly BoltVersion[] = SUPPORTED_VERSIONS): Buffer {
  const groups = versionGroups(supported);
  const parts: Buffer[] = [word32(MANIFEST_V1), encodeVarint(groups.length)];
  for (const group of groups) parts.push(word32(encodeVersion(group.newest, group.newest.minor - group.oldestMinor)));
  parts.push(encodeVarint(0));
  return Buffer.concat(parts);
}

/** Supported versions folded into contiguous ranges per major version. */
function versionGroups(supported: readonly BoltVersion[]): { newest: BoltVersion; oldestMinor: number }[] {
  const groups: { newest: BoltVersion; oldestMinor: number }[] = [];
  for (const version of supported) {
    const last = groups.at(-1);
    if (last && last.newest.major === version.major && last.oldestMinor === version.minor + 1) {
      last.oldestMinor = version.minor;
    } else {
      groups.push({ newest: version, oldestMinor: version.minor });
    }
  }
  return groups;
}

/**
 * Reads the client's manifest choice: 4 bytes of version then a varint capability mask.
 * Returns null while more bytes are needed.
 */
export function readManifestChoice(
  bytes: Uint8Array,
  supported: readonly BoltVersion[] = SUPPORTED_VERSIONS,
): { version: BoltVersion | null; consumed: number } | null {
  if (bytes.length < 5) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, 4);
  const proposal = decodeProposal(view.getUint32(0));
  const varint = decodeVarint(bytes, 4);
  if (varint === null) return null;
  const version = { major: proposal.major, minor: proposal.minor };
  return { version: isSupported(version, supported) && proposal.range === 0 ? version : null, consumed: 4 + varint.length };
}

/** Unsigned LEB128. */
export function encodeVarint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0);
  return Buffer.from(bytes);
}

/** Decodes an unsigned LEB128 at `offset`; null when incomplete. At most 10 bytes are read. */
export function decodeVarint(bytes: Uint8Array, offset: number): { value: number; length: number } | null {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (offset + i >= bytes.length) return null;
    const byte = bytes[offset + i]!;
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if ((byte & 0x80) === 0) return { value, length: i + 1 };
  }
  return { value, length: 10 };
}

function word32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value >>> 0);
  return out;
}
