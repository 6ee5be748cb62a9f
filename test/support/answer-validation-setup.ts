import { checkingFetch } from '#test/support/answer-validation.ts';

// Every answer a test receives is checked against the published reference (see answer-validation.ts).
globalThis.fetch = checkingFetch(globalThis.fetch);
