/**
 * Tells a provider fake (test/fakes) what to do next: a POST to its `/_fake…` control routes, with
 * a JSON body (settle a collection, fail the next call, …). `fakeUrl` is read at call time, as the
 * fake is started in `beforeAll`.
 */
export const fakeControl =
  (fakeUrl: () => string) =>
  (path: string, body: unknown = {}) =>
    fetch(`${fakeUrl()}/_fake${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
