// The Publisher a session writes its outputs through during one request:
// each call becomes one iopub message whose parent is that request.
import type { RequestContext } from './dispatch.js';
import type { Publisher } from './language-session.js';
import type { StdinChannel } from './stdin-channel.js';

export function createPublisher(context: RequestContext, stdin: StdinChannel, allowStdin: boolean): Publisher {
  const { publish, request } = context;
  return {
    stream: (name, text) => publish('stream', { name, text }),
    display: (data, metadata = {}, displayId) =>
      publish('display_data', { data, metadata, transient: displayId === undefined ? {} : { display_id: displayId } }),
    updateDisplay: (data, metadata = {}, displayId) =>
      publish('update_display_data', { data, metadata, transient: { display_id: displayId } }),
    clearOutput: (wait) => publish('clear_output', { wait }),
    input(prompt, options) {
      if (!allowStdin) {
        return Promise.reject(new Error('input() is not available: this execute_request was sent with allow_stdin=false'));
      }
      return stdin.request(request, prompt, options?.password === true);
    },
  };
}
