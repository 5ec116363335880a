/**
 * A server-sent-events reader (the WHATWG event-stream format): bytes are decoded as UTF-8,
 * split on CR, LF or CRLF, `data:` lines of one event are joined with `\n`, a blank line ends
 * the event, comment lines (`:`) and other fields are ignored.
 */

/** Yields the `data` payload of each event of a byte stream. */
export async function* readSseData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const takeLine = (line: string): string | null => {
    if (line === '') {
      const event = data.length === 0 ? null : data.join('\n');
      data = [];
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    return null;
  };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let match: RegExpExecArray | null;
    const lineEnd = /\r\n|\r|\n/g;
    let consumed = 0;
    while ((match = lineEnd.exec(buffer)) !== null) {
      if (match[0] === '\r' && match.index === buffer.length - 1) break;
      const event = takeLine(buffer.slice(consumed, match.index));
      consumed = match.index + match[0].length;
      if (event !== null) yield event;
    }
    buffer = buffer.slice(consumed);
  }
  buffer = (buffer + decoder.decode()).replace(/\r$/, '');
  if (buffer !== '') {
    const event = takeLine(buffer);
    if (event !== null) yield event;
  }
  if (data.length > 0) yield data.join('\n');
}
