// Runs one execute_request through @jupyterlab/services (as JupyterLab does)
// and collects everything the kernel published for it on iopub.
import type { Kernel, KernelMessage } from '@jupyterlab/services';

export interface ExecuteRecord {
  msgId: string;
  reply: KernelMessage.IExecuteReplyMsg['content'];
  stdout: string;
  stderr: string;
  /** display_data, update_display_data, execute_result, error and clear_output messages in order. */
  outputs: { type: string; content: Record<string, any> }[];
  /** execution_state values published with this request as parent, in order. */
  states: string[];
}

export async function execute(
  kernel: Kernel.IKernelConnection,
  code: string,
  options: { onBusy?: () => void; onStdout?: (text: string) => void; stopOnError?: boolean } = {},
): Promise<ExecuteRecord> {
  const future = kernel.requestExecute({ code, stop_on_error: options.stopOnError ?? false });
  const record: Omit<ExecuteRecord, 'reply'> = { msgId: future.msg.header.msg_id, stdout: '', stderr: '', outputs: [], states: [] };
  future.onIOPub = (msg) => {
    const content = msg.content as Record<string, any>;
    switch (msg.header.msg_type) {
      case 'status':
        record.states.push(content.execution_state);
        if (content.execution_state === 'busy') options.onBusy?.();
        break;
      case 'stream':
        record[content.name as 'stdout' | 'stderr'] += content.text;
        if (content.name === 'stdout') options.onStdout?.(content.text);
        break;
      case 'execute_input':
        break;
      default:
        record.outputs.push({ type: msg.header.msg_type, content });
    }
  };
  const reply = await future.done;
  return { ...record, reply: reply.content };
}

/** The one output of a type, failing clearly when there is not exactly one. */
export function only(record: ExecuteRecord, type: string): Record<string, any> {
  const found = record.outputs.filter((o) => o.type === type);
  if (found.length !== 1) throw new Error(`expected one ${type}, got ${found.length}: ${JSON.stringify(record.outputs)}`);
  return found[0].content;
}
