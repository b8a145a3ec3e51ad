import type { Magic } from './magic.js';

export const lsmagic: Magic = {
  name: 'lsmagic',
  summary: 'List the available magics.',
  help: '%lsmagic\n\nLists every line magic with a one-line summary. Inspect a magic (Shift+Tab on `%name`) for its usage.',
  run({ magics, write }) {
    const names = [...magics.keys()].sort();
    const width = Math.max(...names.map((n) => n.length)) + 1;
    write('stdout', `Available line magics:\n${names.map((n) => `  %${n.padEnd(width)} ${magics.get(n)!.summary}`).join('\n')}\n`);
  },
};
