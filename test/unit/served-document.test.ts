import { describe, expect, it } from 'vitest';
import { servedDocument } from '#shared/reference/served-document.ts';

type Document = { servers: { url: string }[]; paths: Record<string, Record<string, unknown>> };

describe('the document a host serves', () => {
  it('names the host that serves it as the server', () => {
    const served = servedDocument('https://api.example.ci/staging', true) as Document;
    expect(served.servers).toEqual([{ url: 'https://api.example.ci/staging' }]);
  });

  it('keeps the sandbox operations on a sandbox stage and leaves them out on production', () => {
    const sandbox = servedDocument('https://x', true) as Document;
    const production = servedDocument('https://x', false) as Document;
    expect(sandbox.paths['/sandbox/payment_requests/{id}/approve']).toBeDefined();
    expect(production.paths['/sandbox/payment_requests/{id}/approve']).toBeUndefined();
    expect(production.paths['/sandbox/provider/checkout/{providerReference}']).toBeUndefined();
    expect(Object.keys(production.paths).some((path) => path.startsWith('/sandbox'))).toBe(false);
    expect(production.paths['/partner_api/payment_requests']?.post).toBeDefined();
  });
});
