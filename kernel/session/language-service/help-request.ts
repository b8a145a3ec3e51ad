// IPython's `name?` help: a cell that is only an expression name followed by
// `?` (e.g. `tpu.randn?`, `%timeit?`) shows what inspect shows, as a 'page'
// payload, which frontends open in their pager / help panel.

const HELP_REQUEST = /^\s*(%?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\?\s*$/;

/** The name a help cell asks about, or undefined when the cell is code. */
export function helpRequest(code: string): string | undefined {
  return HELP_REQUEST.exec(code)?.[1];
}
