// Last resort of an interrupt, on the IO worker: a synchronous loop of cell code
// that runs outside vm's breakOnSigint scope (in a microtask: after an await
// inside an async function, or in a timer callback) never lets the main thread
// read the interrupt. V8's inspector pauses the main thread, as DevTools' pause
// button does, and terminates its execution only when cutting it is safe: the
// paused frame is cell code, and everything below it is cell code, the session's
// own code, or Node's microtask run (Node's other machinery, a timer's or a
// nextTick's callback scope, must never be cut in the middle: its async context
// stack would be left corrupt and the process would end). Otherwise it resumes
// and pauses again a moment later. V8 cancels the termination once that
// JavaScript has unwound, and the thread goes on serving. (V8 drops the rest of
// the microtask queue it was running: work queued behind the loop is lost.)
import { CELL_SCRIPT_NAME } from '../language-session.js';

const RETRY_MS = 5;
const ATTEMPTS = 200;
const TERMINATION_ANSWER_MS = 5000;
/** The session's own code: what a cell's callbacks and continuations run through. */
const SESSION_CODE = /[\\/]kernel[\\/]session[\\/]/;
/** The call of a Node frame that runs the microtask queue, between callbacks. */
const RUNS_MICROTASKS = /\brunMicrotasks\(\)/;

type CallFrame = { location: { scriptId: string; lineNumber: number } };
type Paused = { callFrames: CallFrame[] };

/** `stuck()` says whether the main thread still has not read the interrupt: once it has, nothing is done. */
export async function terminateStuckCellCode(stuck: () => boolean, log: (text: string) => void): Promise<void> {
  // Loaded on first use: off the kernel's start, and a Node built without the inspector still runs.
  const inspector = await import('node:inspector').catch(() => undefined);
  if (!inspector) return log('interrupt: this Node has no inspector; a loop outside vm runs cannot be stopped');
  const session = new inspector.Session();
  session.connectToMainThread();
  const post = <T = unknown>(method: string, params?: object) =>
    new Promise<T | undefined>((resolve) => session.post(method, params, (error, result) => {
      if (error) log(`inspector ${method}: ${error.message}`);
      resolve(result as T | undefined);
    }));
  const scriptNames = new Map<string, string>();
  session.on('Debugger.scriptParsed', ({ params }) => scriptNames.set(params.scriptId, params.url));
  const sourceLines = new Map<string, string[]>();
  const lineOf = async ({ location }: CallFrame) => {
    if (!sourceLines.has(location.scriptId)) {
      const source = await post<{ scriptSource: string }>('Debugger.getScriptSource', { scriptId: location.scriptId });
      sourceLines.set(location.scriptId, source?.scriptSource.split('\n') ?? []);
    }
    return sourceLines.get(location.scriptId)![location.lineNumber] ?? '';
  };
  const isCellCode = (frame: CallFrame) => CELL_SCRIPT_NAME.test(scriptNames.get(frame.location.scriptId) ?? '');
  const safeToCut = async (frames: CallFrame[]) => {
    if (!frames[0] || !isCellCode(frames[0])) return false;
    const below = frames.find((frame) => !isCellCode(frame) && !SESSION_CODE.test(scriptNames.get(frame.location.scriptId) ?? ''));
    return below === undefined || RUNS_MICROTASKS.test(await lineOf(below));
  };

  let attempts = 0;
  const finish = (terminated?: Promise<unknown>) => {
    void post('Debugger.disable');
    // The termination is answered once the cut JavaScript has unwound: the session waits for it.
    // Unref'd, like the retries below: a worker that has closed its sockets (shutdown) exits without waiting.
    void Promise.race([terminated, new Promise((resolve) => setTimeout(resolve, TERMINATION_ANSWER_MS).unref())]).then(() => session.disconnect());
  };
  session.on('Debugger.paused', async ({ params }: { params: Paused }) => {
    const cut = stuck() && (await safeToCut(params.callFrames));
    // Terminated while paused: the cell code's frame is the first to run on resume.
    const terminated = cut ? post('Runtime.terminateExecution') : undefined;
    void post('Debugger.resume');
    if (cut || !stuck()) return finish(terminated);
    if (++attempts >= ATTEMPTS) {
      log('interrupt: the main thread stays busy outside cell code it is safe to stop; not terminated');
      return finish();
    }
    setTimeout(() => void post('Debugger.pause'), RETRY_MS).unref();
  });
  void post('Debugger.enable').then(() => post('Debugger.pause'));
}
