// execute_request: execution count, execute_input, history, the session's
// outcome as execute_result / exactly one error output, user_expressions, and
// stop_on_error (queued requests after a non-silent failure are aborted by dispatch).
import { errorFields, type Handler } from '../dispatch.js';
import type { HistoryStore } from '../history/history-store.js';
import type { ExecuteOutcome, LanguageSession } from '../language-session.js';
import { createPublisher } from '../publisher.js';
import { stringField } from './content-fields.js';
import type { StdinChannel } from '../stdin-channel.js';

export interface ExecutionState {
  executionCount: number;
  /** Set when a cell fails with stop_on_error and requests are queued; cleared once they are drained. */
  aborting: boolean;
}

/** `queued` says whether more shell requests are already waiting (those get aborted after a failure). */
export function executeHandler(
  session: LanguageSession,
  state: ExecutionState,
  history: HistoryStore,
  stdin: StdinChannel,
  queued: () => boolean,
): Handler {
  return async (context) => {
    const content = context.request.content;
    const code = stringField(content, 'execute_request', 'code');
    const silent = content.silent === true;
    const storeHistory = !silent && content.store_history !== false;
    const allowStdin = content.allow_stdin === true;
    const stopOnError = content.stop_on_error !== false;
    if (storeHistory) state.executionCount++;
    const executionCount = state.executionCount;
    if (!silent) context.publish('execute_input', { code, execution_count: executionCount });
    if (storeHistory) history.append(executionCount, code);

    const publisher = createPublisher(context, stdin, allowStdin);
    // A session that fails instead of returning an outcome still gets the cell its error output and reply.
    const outcome = await session.execute(code, { executionCount, silent, storeHistory, allowStdin, publisher })
      .catch((error: unknown): ExecuteOutcome => ({ status: 'error', ...errorFields(error) }));
    if (outcome.status === 'error') {
      const { ename, evalue, traceback } = outcome;
      context.publish('error', { ename, evalue, traceback });
      // decided before the reply goes out, so a client answering the reply is never aborted; a
      // silent request (a frontend's own probe) aborts nothing, as in ipykernel
      if (stopOnError && !silent && queued()) state.aborting = true;
      return { status: 'error', execution_count: executionCount, ename, evalue, traceback };
    }
    if (outcome.result && !silent) {
      context.publish('execute_result', { execution_count: executionCount, data: outcome.result.data, metadata: outcome.result.metadata ?? {} });
    }
    const expressions = content.user_expressions;
    const userExpressions =
      expressions && typeof expressions === 'object' && Object.keys(expressions).length > 0
        ? await session.evaluateExpressions(expressions as Record<string, string>)
        : {};
    return { status: 'ok', execution_count: executionCount, user_expressions: userExpressions, payload: outcome.payload ?? [] };
  };
}
