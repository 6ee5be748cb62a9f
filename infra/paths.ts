import { resolve } from 'node:path';

/** The repository's root: route handler paths in the route table are relative to it. */
export const projectRoot = resolve(import.meta.dirname, '..');
