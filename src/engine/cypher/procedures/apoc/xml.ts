/**
 * XML for APOC (apoc.xml.parse, apoc.load.xml): a small non-validating parser (elements,
 * attributes, text, CDATA; comments, processing instructions and the doctype skipped; the five
 * predefined and numeric entities) into APOC's map shape `{_type, <attributes>, _text, _children}`,
 * and absolute child paths (`/catalog/book`) to select elements.
 */
import type { CypherValue } from '../../../values/types.js';
import { illegalArgument } from './define.js';

/** A parsed element. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Map<string, string>;
  readonly children: (XmlElement | string)[];
}

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (_m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" } as Record<string, string>)[e.toLowerCase()]!;
  });
}

/** Parses an XML document into its root element. */
export function parseXml(text: string): XmlElement {
  let i = 0;
  const fail = (what: string): never => {
    throw illegalArgument(`XML parse error at position ${i}: ${what}`);
  };
  const stack: XmlElement[] = [{ name: '#document', attributes: new Map(), children: [] }];
  while (i < text.length) {
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i);
      i = end < 0 ? fail('unterminated comment') : end + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i);
      if (end < 0) fail('unterminated CDATA');
      stack[stack.length - 1]!.children.push(text.slice(i + 9, end));
      i = end + 3;
    } else if (text.startsWith('<?', i) || text.startsWith('<!', i)) {
      const end = text.indexOf('>', i);
      i = end < 0 ? fail('unterminated declaration') : end + 1;
    } else if (text.startsWith('</', i)) {
      const end = text.indexOf('>', i);
      const name = text.slice(i + 2, end).trim();
      const open = stack.pop()!;
      if (open.name !== name || stack.length === 0) fail(`unexpected </${name}>`);
      stack[stack.length - 1]!.children.push(open);
      i = end + 1;
    } else if (text[i] === '<') {
      const m = /^<([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(text.slice(i, i + 65536));
      if (m === null) fail('malformed tag');
      const attributes = new Map<string, string>();
      for (const a of m![2]!.matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
        attributes.set(a[1]!, decode(a[2] ?? a[3] ?? ''));
      const element: XmlElement = { name: m![1]!, attributes, children: [] };
      if (m![3] === '/') stack[stack.length - 1]!.children.push(element);
      else stack.push(element);
      i += m![0].length;
    } else {
      const end = text.indexOf('<', i);
      const raw = text.slice(i, end < 0 ? text.length : end);
      if (raw.trim() !== '') stack[stack.length - 1]!.children.push(decode(raw));
      i = end < 0 ? text.length : end;
    }
  }
  if (stack.length !== 1) fail(`unclosed <${stack[stack.length - 1]!.name}>`);
  const root = stack[0]!.children.find((c): c is XmlElement => typeof c !== 'string');
  return root ?? fail('no root element');
}

/** APOC's map of an element: `_type`, attributes, `_text` (text content) and `_children`. */
export function xmlToMap(e: XmlElement, simple = false): Map<string, CypherValue> {
  const out = new Map<string, CypherValue>([['_type', e.name]]);
  for (const [k, v] of e.attributes) out.set(k, v);
  const texts = e.children.filter((c): c is string => typeof c === 'string').map((t) => t.trim());
  const elements = e.children.filter((c): c is XmlElement => typeof c !== 'string');
  if (texts.length > 0) out.set('_text', texts.join(' '));
  if (elements.length > 0) {
    if (simple) for (const child of elements) out.set(`_${child.name}`, xmlToMap(child, true));
    else
      out.set(
        '_children',
        elements.map((c) => xmlToMap(c, false)),
      );
  }
  return out;
}

/** Elements selected by an absolute child path (`/`, `/catalog`, `/catalog/book`). */
export function selectXml(root: XmlElement, path: string): XmlElement[] {
  const steps = path.split('/').filter((s) => s !== '');
  if (steps.length === 0) return [root];
  if (steps[0] !== root.name && steps[0] !== '*') return [];
  let current = [root];
  for (const step of steps.slice(1)) {
    current = current.flatMap((e) => e.children.filter((c): c is XmlElement => typeof c !== 'string' && (step === '*' || c.name === step)));
  }
  return current;
}
