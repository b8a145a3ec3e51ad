import { UsageError } from '../cells/cell-errors.js';
import type { Magic, TypecheckMode } from './magic.js';
import { splitCell } from './magic-lines.js';

const MODES: readonly TypecheckMode[] = ['off', 'warn', 'error'];

/**
 * The mode a cell is checked under: a `%typecheck mode` line before its first code sets it
 * for the cell itself (the check of the whole cell runs before any line of it), as IPython's
 * line magics take effect at once. The line still runs in order and sets the session's mode.
 */
export function cellTypecheckMode(cell: string, magics: ReadonlyMap<string, Magic>, current: TypecheckMode): TypecheckMode {
  let mode = current;
  for (const segment of splitCell(cell, magics)) {
    if (segment.kind === 'code') break;
    if (segment.name === 'typecheck' && MODES.includes(segment.args as TypecheckMode)) mode = segment.args as TypecheckMode;
  }
  return mode;
}

export const typecheck: Magic = {
  name: 'typecheck',
  summary: 'Type-check cells against earlier cells: off | warn | error (default warn).',
  help: [
    '%typecheck [off|warn|error]',
    '',
    'How type errors of a cell (checked against every earlier cell, the tensor API',
    'and a tsconfig.json in the notebook folder) are reported before it runs:',
    '  off    not checked',
    '  warn   printed on stderr with line and column; the cell still runs (default)',
    '  error  the cell fails without running',
    'Without an argument, prints the current mode.',
  ].join('\n'),
  run({ args, settings, write }) {
    if (!args) {
      write('stdout', `typecheck: ${settings.typecheck}\n`);
      return;
    }
    if (!MODES.includes(args as TypecheckMode)) {
      throw new UsageError(`%typecheck: mode must be one of ${MODES.join(', ')}, got '${args}'`);
    }
    settings.typecheck = args as TypecheckMode;
  },
};
