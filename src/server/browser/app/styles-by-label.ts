/**
 * Style by label: each label gets a colour (from a palette, stable per label name, overridable
 * by the user) and a caption property; the choices are kept in localStorage.
 */

const KEY = 'graphdb.browser.label-styles';
const PALETTE = [
  '#4c8eda',
  '#f79767',
  '#57c7e3',
  '#f16667',
  '#d9c8ae',
  '#8dcc93',
  '#ecb5c9',
  '#ffc454',
  '#da7194',
  '#569480',
  '#c990c0',
  '#a5abb6',
  '#6dce9e',
  '#ff928c',
  '#9b6bd6',
];

/** The style of one label. */
export interface LabelStyle {
  color: string;
  /** Property shown as caption; empty: automatic (name, title, ...). */
  caption: string;
}

function hash(text: string): number {
  let value = 0;
  for (let i = 0; i < text.length; i++) value = (value * 31 + text.charCodeAt(i)) | 0;
  return Math.abs(value);
}

/** The label styles of this browser. */
export class LabelStyles {
  private readonly styles: Record<string, LabelStyle>;
  private readonly listeners = new Set<() => void>();

  constructor() {
    try {
      this.styles = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, LabelStyle>;
    } catch {
      this.styles = {};
    }
  }

  /** The style of a node with these labels (its first label decides). */
  of(labels: readonly string[]): LabelStyle {
    const label = labels[0];
    if (label === undefined) return { color: '#a5abb6', caption: '' };
    return this.styles[label] ?? { color: PALETTE[hash(label) % PALETTE.length]!, caption: '' };
  }

  set(label: string, style: LabelStyle): void {
    this.styles[label] = style;
    localStorage.setItem(KEY, JSON.stringify(this.styles));
    for (const listener of this.listeners) listener();
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
