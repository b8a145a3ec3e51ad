// text/plain of a profile: fits 80 columns, no colours, reads the same in a terminal,
// in nbconvert output and in a log.
import { figureRows, heading, programColumns, topPrograms, warningPlace } from './figures.js';
import type { ProfileData } from './profile-data.js';
import { xlaEstimateSource } from './figures.js';

/** Figures longer than this take a line of their own. */
const LONG = 40;

export function renderText(d: ProfileData): string {
  const lines = [heading(d)];
  // Short figures two to a line; a long one (the chips' rows) gets a line of its own.
  const all = figureRows(d);
  const rows = all.filter((r) => r.value.length <= LONG);
  const leftWidth = Math.max(...rows.filter((_, i) => i % 2 === 0).map((r) => 17 + r.value.length)) + 2;
  const line = (r: { label: string; value: string }) => `${r.label.padEnd(r.label.length < 15 ? 15 : r.label.length + 1)}${r.value}`;
  for (let i = 0; i < rows.length; i += 2) {
    const left = `  ${line(rows[i]!)}`;
    lines.push(rows[i + 1] ? `${left.padEnd(leftWidth)}${line(rows[i + 1]!)}` : left);
  }
  for (const r of all) if (r.value.length > LONG) lines.push(`  ${line(r)}`);
  const { shown, more } = topPrograms(d);
  if (shown.length) {
    const cols = programColumns(d);
    const table = [cols.map((c) => c.header), ...shown.map((p) => cols.map((c) => c.cell(p)))];
    const widths = cols.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
    // The program label (last column) gets what is left of 80 columns (HTML and JSON have it whole).
    const labelWidth = Math.max(16, 76 - widths.slice(0, -1).reduce((a, w) => a + w + 2, 0));
    const by = xlaEstimateSource(d);
    lines.push(by ? `  programs (device time; estimates for one ${d.chip.name} chip by ${by}):` : '  programs (device time; the roofline column is an estimate for the chip):');
    for (const r of table) {
      lines.push('    ' + r.map((v, i) => (i === r.length - 1 ? clip(v, labelWidth) : cols[i]!.right ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  '));
    }
    if (more) lines.push(`    … ${more} more program${more > 1 ? 's' : ''}`);
  }
  if (d.warnings.length) {
    lines.push('  warnings:');
    for (const w of d.warnings) {
      lines.push(`  ! ${warningPlace(w)}${w.site.text ? `: ${w.site.text.trim()}` : ''}`);
      lines.push(...wrap(w.message, 72).map((l) => `      ${l}`));
    }
  }
  return lines.join('\n');
}

/** Word-wraps to `width` columns (a word longer than that stays whole). */
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...out, line];
}

function clip(s: string, width: number): string {
  return s.length <= width ? s : `${s.slice(0, width - 1)}…`;
}
