// complete / inspect / is_complete: thin mappings from the session's results
// to reply content (positions count Unicode code points, protocol 5.2+).
import type { DispatchTable } from '../dispatch.js';
import type { LanguageSession } from '../language-session.js';

const codeOf = (content: Record<string, unknown>) => (typeof content.code === 'string' ? content.code : '');
const cursorOf = (content: Record<string, unknown>, code: string) =>
  typeof content.cursor_pos === 'number' ? content.cursor_pos : [...code].length;

export function languageRoutes(session: LanguageSession): DispatchTable {
  return {
    complete_request: {
      channel: 'shell',
      handler: async ({ request: { content } }) => {
        const code = codeOf(content);
        const r = await session.complete(code, cursorOf(content, code));
        return { status: 'ok', matches: r.matches, cursor_start: r.cursorStart, cursor_end: r.cursorEnd, metadata: r.metadata ?? {} };
      },
    },
    inspect_request: {
      channel: 'shell',
      handler: async ({ request: { content } }) => {
        const code = codeOf(content);
        const r = await session.inspect(code, cursorOf(content, code), content.detail_level === 1 ? 1 : 0);
        return { status: 'ok', found: r.found, data: r.data, metadata: r.metadata ?? {} };
      },
    },
    is_complete_request: {
      channel: 'shell',
      handler: async ({ request: { content } }) => ({ ...(await session.isComplete(codeOf(content))) }),
    },
  };
}
