// comm_open / comm_msg / comm_close from frontends (no replies) and comm_info. What the
// comm handlers output while one of these is delivered has that message as its parent.
import type { Comms } from '../comms/comm-registry.js';
import type { DispatchTable, RequestContext } from '../dispatch.js';
import type { LanguageSession } from '../language-session.js';
import { createPublisher } from '../publisher.js';
import type { StdinChannel } from '../stdin-channel.js';

export function commRoutes(comms: Comms, session: LanguageSession, stdin: StdinChannel): DispatchTable {
  const deliver = (context: RequestContext, handle: () => void): undefined => {
    if (session.handleComm) session.handleComm(createPublisher(context, stdin, false), handle);
    else handle();
    return undefined;
  };
  return {
    comm_open: { channel: 'shell', handler: (context) => deliver(context, () => comms.opened(context.request.content)) },
    comm_msg: { channel: 'shell', handler: (context) => deliver(context, () => comms.message(context.request.content, context.request.buffers)) },
    comm_close: { channel: 'shell', handler: (context) => deliver(context, () => comms.closed(context.request.content)) },
    comm_info_request: {
      channel: 'shell',
      handler: ({ request: { content } }) => ({
        status: 'ok',
        comms: comms.info(typeof content.target_name === 'string' ? content.target_name : undefined),
      }),
    },
  };
}
