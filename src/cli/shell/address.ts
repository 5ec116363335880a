/** Server addresses as cypher-shell accepts them for `-a`. */

/** URI schemes neo4j-driver understands. */
const SCHEMES = ['bolt', 'bolt+s', 'bolt+ssc', 'neo4j', 'neo4j+s', 'neo4j+ssc'];

/**
 * A driver URL from what a user typed: `host`, `host:port`, `:port`, or a URL with one of the
 * driver's schemes. A bare address gets `bolt://` (a direct connection: a single server needs no routing) and port 7687.
 * @throws Error naming the accepted forms for anything else
 */
export function normalizeAddress(address: string): string {
  const text = address.trim();
  const scheme = /^([a-z0-9+]+):\/\//i.exec(text);
  if (scheme !== null) {
    if (!SCHEMES.includes(scheme[1]!.toLowerCase())) {
      throw new Error(
        `Unsupported scheme '${scheme[1]}' in '${address}': use one of ${SCHEMES.map((s) => s + '://').join(', ')}, or host:port.`,
      );
    }
    return text;
  }
  const match = /^(\[[^\]]+\]|[^:/\s]*)(?::(\d+))?$/.exec(text);
  if (match === null || (match[1] === '' && match[2] === undefined)) {
    throw new Error(`Invalid address '${address}': use host, host:port, or a URL such as neo4j://host:7687 or bolt://host:7687.`);
  }
  return `bolt://${match[1] === '' ? 'localhost' : match[1]}:${match[2] ?? '7687'}`;
}
