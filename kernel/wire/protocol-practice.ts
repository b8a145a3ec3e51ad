// The protocol's share of a cell, on a practice cell (session/jit-warm-up.ts): its
// execute_request decoded and verified as it comes from ZeroMQ, and the five messages its answer
// makes (busy, execute_input, execute_result, the reply, idle) made, encoded and signed. Nothing
// is sent, and the kernel's replay guard never sees these signatures.
import { createMessage, decodeMessage, encodeMessage, iopubTopic, type Content } from './message.js';
import { ReplayGuard, type Signer } from './signature.js';

export function practiseProtocol(code: string, session: string, signer: Signer): void {
  const request = createMessage(session, 'execute_request', { code, silent: false, store_history: true, user_expressions: {}, allow_stdin: false }, undefined, { identities: ['practice'] });
  const frames = encodeMessage(request, signer).map((frame) => (typeof frame === 'string' ? Buffer.from(frame) : frame));
  const parent = decodeMessage(frames, signer, new ReplayGuard());
  const published: [string, Content][] = [
    ['status', { execution_state: 'busy' }],
    ['execute_input', { code, execution_count: 1 }],
    ['execute_result', { execution_count: 1, data: { 'text/plain': '1' }, metadata: {} }],
    ['status', { execution_state: 'idle' }],
  ];
  for (const [msgType, content] of published) encodeMessage(createMessage(session, msgType, content, parent, { identities: iopubTopic(msgType) }), signer);
  encodeMessage(createMessage(session, 'execute_reply', { status: 'ok', execution_count: 1, user_expressions: {}, payload: [] }, parent), signer);
}
