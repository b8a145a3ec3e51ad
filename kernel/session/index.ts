// Seed of the language side: runs plain JavaScript cells in one vm context.
// kernel/session's own issue replaces it with TypeScript cells, the language
// service, display helpers and magics; the protocol side only uses `createSession`.
import vm from 'node:vm';
import { inspect as formatValue, types } from 'node:util';
import type { ExecuteContext, ExecuteOutcome, LanguageSession, SessionFactory } from '../language-session.js';

export const createSession: SessionFactory = ({ comms }) => {
  let publisher: ExecuteContext['publisher'] | undefined;
  let interruptAwait: ((reason: Error) => void) | undefined;
  const write = (name: 'stdout' | 'stderr') => (...args: unknown[]) =>
    publisher?.stream(name, args.map((a) => (typeof a === 'string' ? a : formatValue(a))).join(' ') + '\n');
  const context = vm.createContext({
    console: { log: write('stdout'), error: write('stderr') },
    comms,
    input: (prompt: string, options?: { password?: boolean }) => publisher!.input(prompt, options),
  });
  // Top-level await: the cell runs as an async function body (its value is then not shown).
  const awaited = (code: string) =>
    Promise.race([
      run(`(async () => {${code}\n})()`),
      new Promise((_, reject) => (interruptAwait = reject)),
    ]).finally(() => (interruptAwait = undefined));
  const run = (code: string) => vm.runInContext(code, context, { breakOnSigint: true });
  const session: LanguageSession = {
    kernelInfo: {
      implementation: 'tpu-kernel',
      implementationVersion: '0.1.0',
      languageInfo: { name: 'typescript', version: '6.0', mimetype: 'text/typescript', file_extension: '.ts' },
      banner: 'tpu-kernel: TypeScript cells on a TPU session',
      helpLinks: [],
    },
    async execute(code, ctx): Promise<ExecuteOutcome> {
      publisher = ctx.publisher;
      try {
        const value = /\bawait\b/.test(code) ? await awaited(code) : run(code);
        return value === undefined ? { status: 'ok' } : { status: 'ok', result: { data: { 'text/plain': formatValue(value) } } };
      } catch (e) {
        const err = types.isNativeError(e) ? e : new Error(String(e)); // cells throw the vm context's Error
        const interrupted = (err as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED' || err.name === 'Interrupted';
        return { status: 'error', interrupted, ename: err.name, evalue: err.message, traceback: [err.stack ?? err.message] };
      }
    },
    async evaluateExpressions(expressions) {
      return Object.fromEntries(Object.entries(expressions).map(([k, src]) => [k, { status: 'ok' as const, data: { 'text/plain': formatValue(run(src)) }, metadata: {} }]));
    },
    async complete(_code, cursorPos) { return { matches: [], cursorStart: cursorPos, cursorEnd: cursorPos }; },
    async inspect() { return { found: false, data: {} }; },
    async isComplete() { return { status: 'unknown' }; },
    interrupt() {
      interruptAwait?.(Object.assign(new Error('execution interrupted'), { name: 'Interrupted' }));
    },
    async shutdown() {},
  };
  return session;
};
