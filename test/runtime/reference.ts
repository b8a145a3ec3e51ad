// Moved to test/support/reference.ts (the one place for float64 references); kept for existing imports.
export * from '../support/reference.js';
