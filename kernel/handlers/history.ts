// history_request: tail, range and search (glob patterns, unique, n).
import type { DispatchTable } from '../dispatch.js';
import type { Content } from '../wire/message.js';
import type { HistoryEntry, HistoryStore, HistoryTuple } from '../history/history-store.js';

/** An integer field at least `min`, or undefined when absent (null counts as absent); anything else is an error naming it. */
function optionalInt(content: Content, field: string, min = -Infinity): number | undefined {
  const value = content[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new TypeError(`history_request: ${field} must be ${min === 0 ? 'a non-negative integer' : 'an integer'} or absent, got ${JSON.stringify(value)}`);
  }
  return value;
}

export function historyRoutes(history: HistoryStore): DispatchTable {
  return {
    history_request: {
      channel: 'shell',
      handler: ({ request: { content } }) => {
        const n = optionalInt(content, 'n', 0);
        const unique = content.unique === true;
        let entries: HistoryEntry[];
        switch (content.hist_access_type) {
          case 'tail':
            entries = history.tail(n, unique);
            break;
          case 'range':
            entries = history.range(optionalInt(content, 'session') ?? 0, optionalInt(content, 'start') ?? 0, optionalInt(content, 'stop'));
            break;
          case 'search':
            entries = history.search(typeof content.pattern === 'string' ? content.pattern : '*', n, unique);
            break;
          default:
            throw new Error(`history_request: hist_access_type must be "tail", "range" or "search", got ${JSON.stringify(content.hist_access_type)}`);
        }
        const tuples: HistoryTuple[] = entries.map((e) => [e.session, e.line, content.output === true ? [e.source, null] : e.source]);
        return { status: 'ok', history: tuples };
      },
    },
  };
}
