import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/paths.ts';

/**
 * The Lambda bundles validate with zod/mini: the classic API's schema classes reference one
 * another, so one classic import puts ~70 KB of zod back into a function (README, "Bundle size").
 * Only the reference's generator, which runs at build time, may use it.
 */
const buildTimeOnly = new Set(['shared/openapi/document.ts']);

async function sources(directory: string): Promise<string[]> {
  const entries = await readdir(path.join(projectRoot, directory), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(projectRoot, path.join(entry.parentPath, entry.name)));
}

describe('the code the functions are bundled from', () => {
  it('imports zod only as zod/mini (or its core types)', async () => {
    const files = [...(await sources('functions')), ...(await sources('shared'))].filter(
      (file) => !buildTimeOnly.has(file),
    );
    const classic: string[] = [];
    for (const file of files) {
      const text = await readFile(path.join(projectRoot, file), 'utf8');
      if (/from 'zod(\/v4)?'/.test(text)) classic.push(file);
    }
    expect(files.length).toBeGreaterThan(100);
    expect(classic).toEqual([]);
  });
});
