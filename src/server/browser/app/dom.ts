/** A tiny DOM builder: `h('div', { class: 'x', onclick }, child, ...)`. */

/** A child of an element: nodes, text, or nothing. */
export type Child = Node | string | number | null | undefined | false;

/** Attributes of `h`: `class`, `on<event>` handlers, `dataset` entries, properties or attributes. */
export type Attrs = Record<string, unknown>;

function append(parent: Node, children: readonly (Child | readonly Child[])[]): void {
  for (const child of children) {
    if (Array.isArray(child)) append(parent, child as readonly Child[]);
    else if (child instanceof Node) parent.appendChild(child);
    else if (typeof child === 'string' || typeof child === 'number') parent.appendChild(document.createTextNode(String(child)));
  }
}

/** Creates an element with attributes and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | readonly Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      element.addEventListener(key.slice(2), value as EventListener);
    } else if (key === 'dataset' && typeof value === 'object') {
      for (const [name, data] of Object.entries(value as Record<string, string>)) element.dataset[name] = data;
    } else if (key === 'value' || key === 'checked' || key === 'selected' || key === 'disabled') {
      (element as unknown as Record<string, unknown>)[key] = value;
    } else {
      element.setAttribute(key, value === true ? '' : typeof value === 'string' ? value : JSON.stringify(value));
    }
  }
  append(element, children);
  return element;
}

/** Replaces every child of `parent`. */
export function replaceChildren(parent: Element, ...children: (Child | readonly Child[])[]): void {
  parent.textContent = '';
  append(parent, children);
}

/** The element matching `selector` inside `root`; throws when missing (a programming error). */
export function find<T extends Element = HTMLElement>(root: ParentNode, selector: string): T {
  const element = root.querySelector<T>(selector);
  if (element === null) throw new Error(`missing element ${selector}`);
  return element;
}
