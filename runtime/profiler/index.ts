export { subscribe, profiling, type ProfileEvent, type ProfileListener } from './events.js';
