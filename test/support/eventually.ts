import type { Body } from '#test/support/api-client.ts';
import type { ReceivedWebhook, WebhookReceiver } from '#test/support/webhook-receiver.ts';

/**
 * Reads until `done` holds of what `read` answers, or until `timeoutMs` has passed: the last
 * answer either way, for the test's own assertion to judge (and to show, when it fails). For what
 * the system does after answering (a callback, a timer, a webhook), in place of a fixed sleep.
 */
export async function eventually<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  { timeoutMs = 15_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The parsed body of the first webhook `receiver` got that `matches`, once it has come (undefined if it never does). */
export function receivedWebhook(
  receiver: Pick<WebhookReceiver, 'received'>,
  matches: (body: Body, webhook: ReceivedWebhook) => boolean,
  options: { timeoutMs?: number } = {},
): Promise<Body> {
  return eventually(
    () =>
      receiver.received
        .map((webhook) => ({ webhook, body: JSON.parse(webhook.body.toString()) as Body }))
        .find(({ body, webhook }) => matches(body, webhook))?.body,
    (found) => found !== undefined,
    options,
  );
}

/**
 * Waits until the clock is `marginMs` past `instant` (an ISO time or ms since the epoch): for a
 * deadline the test is about (an expiry, a hold's end), waited for from the deadline itself rather
 * than guessed from now, so a slow machine neither overshoots a window nor stops short of it.
 */
export async function pastInstant(instant: string | number, marginMs = 100): Promise<void> {
  const at = typeof instant === 'number' ? instant : Date.parse(instant);
  const wait = at + marginMs - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
