/**
 * Live charts from the server's Prometheus `/metrics`, polled every two seconds: request and
 * query rates, node and relationship counts, memory and event-loop lag (the series present).
 */
import type { AppContext } from '../context.js';
import { h, replaceChildren } from '../dom.js';
import { errorView } from '../errors.js';

const INTERVAL_MS = 2000;
const POINTS = 90;

/** Sums of each metric family over its label sets, from the text exposition format. */
export function parseMetrics(text: string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const value = Number(match[3]);
    if (Number.isFinite(value)) sums.set(match[1]!, (sums.get(match[1]!) ?? 0) + value);
  }
  return sums;
}

interface Chart {
  readonly title: string;
  readonly unit: string;
  /** The plotted value from this and the previous sample (rates need both). */
  readonly value: (now: Map<string, number>, before: Map<string, number> | null, seconds: number) => number | null;
}

const rate =
  (name: string) =>
  (now: Map<string, number>, before: Map<string, number> | null, seconds: number): number | null => {
    const current = now.get(name);
    const previous = before?.get(name);
    return current === undefined || previous === undefined ? null : Math.max(0, (current - previous) / seconds);
  };
const gauge =
  (name: string, scale = 1) =>
  (now: Map<string, number>): number | null => {
    const value = now.get(name);
    return value === undefined ? null : value * scale;
  };

const CHARTS: readonly Chart[] = [
  { title: 'HTTP requests', unit: '/s', value: rate('graphdb_http_requests_total') },
  { title: 'Queries', unit: '/s', value: rate('graphdb_queries_total') },
  { title: 'Nodes', unit: '', value: gauge('graphdb_nodes_total') },
  { title: 'Relationships', unit: '', value: gauge('graphdb_edges_total') },
  { title: 'Resident memory', unit: ' MiB', value: gauge('process_resident_memory_bytes', 1 / 1048576) },
  { title: 'Heap used', unit: ' MiB', value: gauge('nodejs_heap_size_used_bytes', 1 / 1048576) },
  { title: 'Event loop lag', unit: ' ms', value: gauge('nodejs_eventloop_lag_seconds', 1000) },
];

function draw(canvas: HTMLCanvasElement, points: readonly number[]): void {
  const context = canvas.getContext('2d');
  if (context === null) return;
  const { width, height } = canvas;
  context.clearRect(0, 0, width, height);
  if (points.length < 2) return;
  const max = Math.max(...points, 1e-9);
  const min = Math.min(...points, 0);
  context.strokeStyle = '#3b6fb6';
  context.lineWidth = 2;
  context.beginPath();
  points.forEach((value, index) => {
    const x = (index / (POINTS - 1)) * width;
    const y = height - 4 - ((value - min) / (max - min || 1)) * (height - 8);
    if (index === 0) context.moveTo(x, y);
    else context.lineTo(x, y);
  });
  context.stroke();
}

function format(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 || Number.isInteger(value) ? 0 : 2;
  return `${value.toFixed(digits)}${unit}`;
}

/** Fills `into` with the metrics page; returns the function that stops polling. */
export async function metricsPage(context: AppContext, into: HTMLElement): Promise<() => void> {
  const series = CHARTS.map(() => [] as number[]);
  const canvases = CHARTS.map(() => h('canvas', { width: 320, height: 90 }));
  const readouts = CHARTS.map(() => h('span', { class: 'readout' }, '–'));
  const status = h('div');
  const cards = CHARTS.map((chart, i) =>
    h('div', { class: 'chart-card', 'data-testid': 'chart' }, h('div', { class: 'chart-title' }, chart.title, readouts[i]), canvases[i]),
  );
  let previous: Map<string, number> | null = null;
  let previousAt = 0;
  const sample = async (): Promise<void> => {
    const text = await context.api.text('/metrics');
    const now = parseMetrics(text);
    const at = performance.now();
    CHARTS.forEach((chart, i) => {
      const value = chart.value(now, previous, (at - previousAt) / 1000);
      if (value === null) return;
      const points = series[i]!;
      points.push(value);
      if (points.length > POINTS) points.shift();
      readouts[i]!.textContent = format(value, chart.unit);
      draw(canvases[i]!, points);
    });
    previous = now;
    previousAt = at;
  };
  await sample();
  replaceChildren(
    into,
    h('h2', {}, 'Live metrics'),
    h('p', { class: 'muted' }, `From /metrics every ${INTERVAL_MS / 1000} s.`),
    status,
    h('div', { class: 'charts' }, cards),
  );
  const timer = setInterval(() => {
    if (!into.isConnected) return clearInterval(timer);
    sample().then(
      () => replaceChildren(status),
      (error: unknown) => replaceChildren(status, errorView(error)),
    );
  }, INTERVAL_MS);
  return () => clearInterval(timer);
}
