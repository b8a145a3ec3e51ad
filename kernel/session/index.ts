// The language side of the kernel (see ../language-session.ts for the contract
// with the protocol side): TypeScript cells in one persistent context.
import type { SessionFactory } from '../language-session.js';
import { TypeScriptSession } from './typescript-session.js';

export const createSession: SessionFactory = (options) => new TypeScriptSession(options);
