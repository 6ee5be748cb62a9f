import { resolve } from 'node:path';

/** The repository's root: entry files of the declared functions are relative to it. */
export const projectRoot = resolve(import.meta.dirname, '..');
