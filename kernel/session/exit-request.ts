// `exit` or `quit` alone in a cell (also `exit()`), as in IPython: the execute reply
// carries the 'ask_exit' payload, on which jupyter console ends its session (and stops
// the kernel); notebook frontends ignore it. A cell's own `exit` binding wins.

const EXIT_REQUEST = /^\s*(exit|quit)\s*(?:\(\s*\))?\s*;?\s*$/;

/** The 'ask_exit' payload when the cell asks to leave, else undefined. */
export function exitRequest(code: string, isDefined: (name: string) => boolean): Record<string, unknown>[] | undefined {
  const name = EXIT_REQUEST.exec(code)?.[1];
  if (!name || isDefined(name)) return undefined;
  return [{ source: 'ask_exit', keepkernel: false }];
}
