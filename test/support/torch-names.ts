// What PyTorch 2.13 answers to a Python expression (module names, keys, shapes), as JSON: the
// reference for names and orders that the torch tier, which compares tensors, cannot carry.
import { spawnSync } from 'node:child_process';

/** A Python expression evaluated after `setup` (torch imported there), printed as JSON. */
export function torchNames(setup: string, expression: string): unknown {
  const run = spawnSync('python3', ['-c', `${setup}\nimport json\nprint(json.dumps(${expression}))`], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 failed (python3 -m pip install torch==2.13.0+cpu): ${run.stderr}`);
  return JSON.parse(run.stdout);
}
