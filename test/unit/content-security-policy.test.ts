import { describe, expect, it } from 'vitest';
import { dashboardContentSecurityPolicy } from '#shared/pages/dashboard-chrome.ts';
import { contentSecurityPolicy } from '#shared/pages/layout.ts';

const directives = (policy: string) => policy.split(';').map((directive) => directive.trim().split(' ')[0]);

describe('the pages’ content security policy', () => {
  it('has each directive once: a browser obeys the first and ignores a repeated one', () => {
    for (const policy of [contentSecurityPolicy, dashboardContentSecurityPolicy]) {
      const names = directives(policy);
      expect(new Set(names).size, policy).toBe(names.length);
    }
  });

  it('allows on the dashboard the hosted pages’ script and the copy button’s, by hash only', () => {
    const scripts = /script-src ([^;]+)/.exec(dashboardContentSecurityPolicy)?.[1]?.split(' ') ?? [];
    expect(scripts).toHaveLength(2);
    for (const source of scripts) expect(source).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
    expect(contentSecurityPolicy).toContain(`script-src ${scripts[0]}`);
  });
});
