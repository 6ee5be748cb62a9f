import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/paths.ts';
import packageJson from '../../package.json' with { type: 'json' };

/**
 * The README stays a page a newcomer reads to the end, every guide under docs/ can be reached from
 * it, and no link between them leads nowhere.
 */
const docsDir = join(projectRoot, 'docs');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const docs = markdownFiles(docsDir);
const readme = join(projectRoot, 'README.md');
const pages = [readme, ...docs];
const read = (path: string) => readFileSync(path, 'utf8');

/** The page without its code: a link-like text in a code block or span is not a link. */
const prose = (text: string) => text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');

/** Markdown links `[text](target)` of a page that point into the repository (no scheme). */
function relativeLinks(path: string): string[] {
  return [...prose(read(path)).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(path: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading = ''] of read(path)
    .replace(/```[\s\S]*?```/g, '')
    .matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

/** The files a page links to, resolved from its folder. */
const linkedFiles = (path: string) =>
  relativeLinks(path)
    .map((target) => target.split('#')[0] as string)
    .filter((file) => file !== '')
    .map((file) => resolve(dirname(path), file));

describe('the README', () => {
  it('is at most 200 lines', () => {
    expect(read(readme).split('\n').length).toBeLessThanOrEqual(200);
  });

  it('states the Node.js version once, as package.json’s engines does', () => {
    expect(packageJson.engines.node).toBe('>=22');
    const statements = pages.flatMap((path) =>
      [...read(path).matchAll(/Node(?:\.js)? \d+(?:\+| or newer)/g)].map(
        (match) => `${relative(projectRoot, path)}: ${match[0]}`,
      ),
    );
    expect(statements).toEqual(['README.md: Node.js 22 or newer']);
  });
});

describe('the guides under docs/', () => {
  it('are each linked from the README, or from docs/README.md, which the README links', () => {
    const index = join(docsDir, 'README.md');
    expect(linkedFiles(readme)).toContain(index);
    const reached = new Set([...linkedFiles(readme), ...linkedFiles(index)]);
    const unlinked = docs.filter((path) => path !== index && !reached.has(path));
    expect(unlinked.map((path) => relative(projectRoot, path))).toEqual([]);
  });

  it('link, as the README does, only to files and headings that exist', () => {
    const broken = pages.flatMap((path) =>
      relativeLinks(path).flatMap((target) => {
        const [file = '', anchor] = target.split('#');
        const to = file === '' ? path : resolve(dirname(path), file);
        const where = `${relative(projectRoot, path)} → ${target}`;
        if (!existsSync(to)) return [`${where}: no such file`];
        if (anchor !== undefined && to.endsWith('.md') && !anchorsOf(to).has(anchor))
          return [`${where}: no such heading`];
        return [];
      }),
    );
    expect(broken).toEqual([]);
  });
});
