// comm_open / comm_msg / comm_close from frontends (no replies) and comm_info.
import type { Comms } from '../comms/comm-registry.js';
import type { DispatchTable } from '../dispatch.js';

export function commRoutes(comms: Comms): DispatchTable {
  return {
    comm_open: { channel: 'shell', handler: ({ request }) => void comms.opened(request.content) },
    comm_msg: { channel: 'shell', handler: ({ request }) => void comms.message(request.content, request.buffers) },
    comm_close: { channel: 'shell', handler: ({ request }) => void comms.closed(request.content) },
    comm_info_request: {
      channel: 'shell',
      handler: ({ request: { content } }) => ({
        status: 'ok',
        comms: comms.info(typeof content.target_name === 'string' ? content.target_name : undefined),
      }),
    },
  };
}
