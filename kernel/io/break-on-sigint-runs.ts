// Tells RunningRequest when the main thread is inside a vm run with
// breakOnSigint (every cell runs so): entering and leaving one, vm swaps the
// SIGINT listeners out and in, and a SIGINT in between ends the process, so
// the IO worker waits for a run to settle before it signals.
import vm from 'node:vm';
import type { RunningRequest } from './running-request.js';

type Run = (this: vm.Script, ...args: never[]) => unknown;

export function trackBreakOnSigintRuns(running: RunningRequest): void {
  const wrap = (run: Run, optionsAt: number): Run =>
    function (this: vm.Script, ...args: never[]) {
      const options = args[optionsAt] as vm.RunningScriptOptions | undefined;
      if (!options?.breakOnSigint) return run.apply(this, args);
      running.enterRun();
      try {
        return run.apply(this, args);
      } finally {
        running.leaveRun();
      }
    };
  const script = vm.Script.prototype as unknown as Record<'runInContext' | 'runInThisContext', Run>;
  script.runInContext = wrap(script.runInContext, 1);
  script.runInThisContext = wrap(script.runInThisContext, 0);
}
