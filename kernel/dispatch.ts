// The one place that owns the rules of every request (as xeus and ipykernel
// do): verify, drop replays, parse, busy, handler, reply, idle. Handlers only
// return reply content; this module encodes, signs and sends.
import { ContentError, createMessage, decodeMessage, encodeMessage, iopubTopic, WireError } from './wire/message.js';
import type { Content, Message } from './wire/message.js';
import type { ReplayGuard, Signer } from './wire/signature.js';
import type { FrameSink } from './wire/send-queue.js';

export type RequestChannel = 'shell' | 'control';

export interface PublishExtras {
  metadata?: Record<string, unknown>;
  buffers?: Buffer[];
}

export interface RequestContext {
  request: Message;
  /** Publish on iopub with this request as parent. */
  publish(msgType: string, content: Content, extras?: PublishExtras): void;
}

/** Returns the reply content, or undefined for messages without a reply (comm_*). */
export type Handler = (context: RequestContext) => Promise<Content | undefined> | Content | undefined;

export interface Route {
  channel: RequestChannel;
  handler: Handler;
  /**
   * The handler publishes before it first waits, and runs no cell code until then
   * (execute_request: execute_input): busy and those messages go to iopub in one hand-off.
   */
  publishesAtOnce?: boolean;
}

export type DispatchTable = Record<string, Route>;

export interface DispatcherOptions {
  session: string;
  signer: Signer;
  replays: ReplayGuard;
  table: DispatchTable;
  iopub: FrameSink & { hold?(): () => void };
  replies: Record<RequestChannel, FrameSink>;
  /** While true, shell requests are answered 'aborted' unhandled (stop_on_error). */
  aborting?: () => boolean;
  /** Told when a request is answered, before its idle: a client may send its next request once it sees that. */
  beforeIdle?: (channel: RequestChannel) => void;
  log?: (text: string) => void;
  /** Told when each request starts (before its busy) and ends (after its idle). */
  tracker?: RequestTracker;
}

export interface RequestTracker {
  begin(): void;
  end(): void;
}

export interface Dispatcher {
  dispatch(channel: RequestChannel, frames: Buffer[]): Promise<void>;
  /** Publish on iopub, signed; parent may be undefined for kernel-initiated messages. */
  publish(msgType: string, content: Content, parent?: Message, extras?: PublishExtras): void;
}

/** An exception as Jupyter error fields. */
export function errorFields(e: unknown): { ename: string; evalue: string; traceback: string[] } {
  const error = e instanceof Error ? e : new Error(String(e));
  return { ename: error.name, evalue: error.message, traceback: [error.stack ?? error.message] };
}

export function errorContent(e: unknown): Content {
  return { status: 'error', ...errorFields(e) };
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { session, signer, replays, table, iopub, replies } = options;
  const log = options.log ?? ((text: string) => process.stderr.write(`[tpu-kernel] ${text}\n`));

  const publish = (msgType: string, content: Content, parent?: Message, extras: PublishExtras = {}) => {
    const message = createMessage(session, msgType, content, parent, { identities: iopubTopic(msgType), ...extras });
    void iopub.send(encodeMessage(message, signer));
  };

  async function dispatch(channel: RequestChannel, frames: Buffer[]): Promise<void> {
    let request: Message;
    /** A request whose content is not an object: answered with an error, not handled. */
    let badContent: ContentError | undefined;
    try {
      request = decodeMessage(frames, signer, replays);
    } catch (e) {
      if (e instanceof ContentError) ({ request } = badContent = e);
      else if (e instanceof WireError) {
        log(`dropped a ${channel} message: ${e.message}`);
        return;
      } else throw e;
    }
    const msgType = request.header.msg_type;
    const route = table[msgType];
    const replyType = msgType.endsWith('_request') ? msgType.replace(/_request$/, '_reply') : undefined;
    if (route && route.channel !== channel) log(`${msgType} arrived on ${channel}, expected on ${route.channel}; answering anyway`);
    options.tracker?.begin();
    const release = route?.publishesAtOnce && !badContent ? iopub.hold?.() : undefined;
    publish('status', { execution_state: 'busy' }, request);
    try {
      let content: Content | undefined;
      if (badContent) {
        log(badContent.message);
        content = replyType === undefined ? undefined : { status: 'error', ename: 'ContentError', evalue: badContent.message, traceback: [] };
      } else if (!route) {
        log(`unknown message type ${JSON.stringify(msgType)} on ${channel}`);
        content = replyType === undefined ? undefined : {
          status: 'error',
          ename: 'UnknownMessageType',
          evalue: `unknown message type ${JSON.stringify(msgType)} on the ${channel} channel`,
          traceback: [],
        };
      } else if (channel === 'shell' && options.aborting?.()) {
        content = { status: 'aborted' };
      } else {
        try {
          let handled: ReturnType<Handler>;
          try {
            handled = route.handler({ request, publish: (type, body, extras) => publish(type, body, request, extras) });
          } finally {
            release?.();
          }
          content = await handled;
        } catch (e) {
          log(`${msgType} handler failed: ${(e as Error).stack ?? e}`);
          content = errorContent(e);
        }
      }
      release?.(); // answered without its handler: busy goes before the reply
      if (content && replyType) {
        const reply = createMessage(session, replyType, content, request, { metadata: { status: content.status } });
        await replies[channel].send(encodeMessage(reply, signer));
      }
    } finally {
      release?.();
      options.beforeIdle?.(channel);
      publish('status', { execution_state: 'idle' }, request);
      options.tracker?.end();
    }
  }

  return { dispatch, publish };
}
