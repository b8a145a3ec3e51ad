import { UsageError } from '../cells/cell-errors.js';
import type { Magic, TypecheckMode } from './magic.js';

const MODES: readonly TypecheckMode[] = ['off', 'warn', 'error'];

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
