// Number formats shared by the profile renderers.
export { formatBytes } from '../device/memory.js';

/** A duration in milliseconds with a unit that suits it: 412 µs, 3.21 ms, 1.50 s. */
export function formatMs(ms: number): string {
  if (ms === 0) return '0 ms';
  if (ms < 1e-3) return `${(ms * 1e6).toPrecision(3)} ns`;
  if (ms < 1) return `${(ms * 1000).toPrecision(3)} µs`;
  if (ms < 1000) return `${ms.toPrecision(3)} ms`;
  return `${(ms / 1000).toPrecision(3)} s`;
}

/** 1.23 G, 45.6 M, 789 k, 12 */
export function formatCount(n: number): string {
  const units: [number, string][] = [[1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  for (const [size, unit] of units) if (n >= size) return `${(n / size).toPrecision(3)} ${unit}`;
  return String(n);
}

export function formatRate(rate: number | null): string {
  return rate === null ? '-' : `${Math.round(rate * 100)}%`;
}

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
