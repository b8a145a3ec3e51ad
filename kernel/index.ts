export type * from './language-session.js';
