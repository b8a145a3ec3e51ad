export type * from './language-session.js';
export { startKernel } from './kernel.js';
export type { KernelOptions } from './kernel.js';
