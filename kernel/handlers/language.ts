// complete / inspect / is_complete: thin mappings from the session's results
// to reply content (positions count Unicode code points, protocol 5.2+).
import type { DispatchTable } from '../dispatch.js';
import type { LanguageSession } from '../language-session.js';
import { cursorField, stringField } from './content-fields.js';


export function languageRoutes(session: LanguageSession): DispatchTable {
  return {
    complete_request: {
      channel: 'shell',
      handler: async ({ request: { content } }) => {
        const code = stringField(content, 'complete_request', 'code');
        const r = await session.complete(code, cursorField(content, 'complete_request', code));
        return { status: 'ok', matches: r.matches, cursor_start: r.cursorStart, cursor_end: r.cursorEnd, metadata: r.metadata ?? {} };
      },
    },
    inspect_request: {
      channel: 'shell',
      handler: async ({ request: { content } }) => {
        const code = stringField(content, 'inspect_request', 'code');
        const r = await session.inspect(code, cursorField(content, 'inspect_request', code), content.detail_level === 1 ? 1 : 0);
        return { status: 'ok', found: r.found, data: r.data, metadata: r.metadata ?? {} };
      },
    },
    is_complete_request: {
      channel: 'shell',
      handler: async ({ request: { content } }) => ({ ...(await session.isComplete(stringField(content, 'is_complete_request', 'code'))) }),
    },
  };
}
