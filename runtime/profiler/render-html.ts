// text/html of a profile (JupyterLab, nbconvert HTML): the figures, the programs with
// their roofline estimates, the warnings with their lines, and the timeline inline.
import { escapeXml as esc } from './format.js';
import { figureRows, heading, programColumns, topPrograms, warningPlace, xlaEstimateSource } from './figures.js';
import type { ProfileData } from './profile-data.js';
import { renderTimelineSvg } from './render-svg.js';

const TABLE = 'style="border-collapse:collapse;font-size:12px"';
const CELL = 'style="padding:1px 8px;text-align:left"';
const NUM = 'style="padding:1px 8px;text-align:right"';

export function renderHtml(d: ProfileData, options: { timeline?: boolean } = {}): string {
  const rows = figureRows(d);
  const figures = [];
  for (let i = 0; i < rows.length; i += 2) {
    const pair = rows.slice(i, i + 2).map((r) => `<th ${CELL}>${esc(r.label)}</th><td ${CELL}>${esc(r.value)}</td>`);
    figures.push(`<tr>${pair.join('')}</tr>`);
  }
  const parts = [
    `<div class="tpu-profile" data-state="${d.state}">`,
    `<div style="font-weight:bold">${esc(heading(d))}</div>`,
    `<table class="figures" ${TABLE}>${figures.join('')}</table>`,
  ];
  const { shown, more } = topPrograms(d);
  if (shown.length) {
    const cols = programColumns(d);
    const by = xlaEstimateSource(d);
    const head = cols.map((c) => `<th ${c.right ? NUM : CELL}>${esc(c.header)}</th>`).join('');
    const body = shown.map((p) => `<tr>${cols.map((c) => `<td ${c.right ? NUM : CELL}>${esc(c.cell(p))}</td>`).join('')}</tr>`);
    parts.push(`<table class="programs" ${TABLE}><caption style="text-align:left">programs (${by ? `estimates for one ${esc(d.chip.name)} chip by ${esc(by)}` : `roofline columns are estimates for ${esc(d.chip.name)}`})</caption><tr>${head}</tr>${body.join('')}</table>`);
    if (more) parts.push(`<div>… ${more} more programs</div>`);
  }
  if (d.warnings.length) {
    const items = d.warnings.map((w) =>
      `<li class="${w.kind}"><b>${esc(warningPlace(w))}</b>${w.site.text ? ` <code>${esc(w.site.text.trim())}</code>` : ''}: ${esc(w.message)}</li>`);
    parts.push(`<ul class="warnings" style="color:#b35c00">${items.join('')}</ul>`);
  }
  if (options.timeline) parts.push(renderTimelineSvg(d));
  parts.push('</div>');
  return parts.join('\n');
}
