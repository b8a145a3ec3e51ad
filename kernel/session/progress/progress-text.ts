// What a progress bar shows, as tqdm shows it: count, percent, elapsed, remaining, rate.
//   epoch  42%|████▏     | 42/100 [00:03<00:04, 12.30 it/s, loss=0.31]

export interface ProgressState {
  label: string;
  count: number;
  total: number | undefined;
  elapsedMs: number;
  postfix: Record<string, unknown>;
}

const BAR_WIDTH = 20;
const BLOCKS = ' ▏▎▍▌▋▊▉█';

/** mm:ss, or h:mm:ss from an hour on. */
export function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}` : `${two(Math.floor(s / 60))}:${two(s % 60)}`;
}

function rate(state: ProgressState): string {
  if (state.count === 0 || state.elapsedMs === 0) return '? it/s';
  const perSecond = (state.count * 1000) / state.elapsedMs;
  return perSecond >= 1 ? `${perSecond.toFixed(2)} it/s` : `${(1 / perSecond).toFixed(2)} s/it`;
}

function postfixText(postfix: Record<string, unknown>): string {
  return Object.entries(postfix).map(([k, v]) => `, ${k}=${typeof v === 'number' ? Number(v.toPrecision(4)) : String(v)}`).join('');
}

/** The figures after the bar: `42/100 [00:03<00:04, 12.30 it/s, loss=0.31]`. */
export function progressFigures(state: ProgressState): string {
  const { count, total, elapsedMs } = state;
  const remaining = total !== undefined && count > 0 ? `<${clock((elapsedMs / count) * Math.max(0, total - count))}` : total !== undefined ? '<?' : '';
  return `${count}${total === undefined ? '' : `/${total}`} [${clock(elapsedMs)}${remaining}, ${rate(state)}${postfixText(state.postfix)}]`;
}

export function fraction(state: ProgressState): number | undefined {
  if (state.total === undefined) return undefined;
  return state.total === 0 ? 1 : Math.min(1, state.count / state.total);
}

/** One line of text, as a terminal shows it. */
export function progressLine(state: ProgressState): string {
  const label = state.label ? `${state.label} ` : '';
  const done = fraction(state);
  if (done === undefined) return `${label}${progressFigures(state)}`;
  const eighths = Math.round(done * BAR_WIDTH * 8);
  const bar = (BLOCKS.at(-1)!.repeat(Math.floor(eighths / 8)) + (eighths % 8 ? BLOCKS[eighths % 8] : '')).padEnd(BAR_WIDTH, ' ');
  return `${label}${String(Math.floor(done * 100)).padStart(3)}%|${bar}| ${progressFigures(state)}`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** An HTML bar with inline styles only (hosted frontends show each output in its own frame). */
export function progressHtml(state: ProgressState): string {
  const done = fraction(state);
  const bar = done === undefined ? '<progress style="width:16em"></progress>' : `<progress value="${state.count}" max="${state.total}" style="width:16em"></progress>`;
  const percent = done === undefined ? '' : `<span>${Math.floor(done * 100)}%</span>`;
  const label = state.label ? `<span>${escapeHtml(state.label)}</span>` : '';
  return `<div style="display:flex;align-items:center;gap:0.5em;font-family:monospace;white-space:nowrap">${label}${percent}${bar}<span>${escapeHtml(progressFigures(state))}</span></div>`;
}
