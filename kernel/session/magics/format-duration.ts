/** A duration in milliseconds as text with a unit that suits it: 412 µs, 3.21 ms, 1.50 s. */
export function formatDuration(ms: number): string {
  if (ms < 1) return `${(ms * 1000).toPrecision(3)} µs`;
  if (ms < 1000) return `${ms.toPrecision(3)} ms`;
  return `${(ms / 1000).toPrecision(3)} s`;
}
