import { randomInt, randomUUID } from 'node:crypto';
import { admin } from '#test/support/local-host.ts';

/** A phone number no one has yet (delivered by the sandbox SMS gateway). */
export const newPhone = () => `+22507${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

/** An existing user who owns a business (made by the operator tool), not linked to anyone. */
export async function newOwner(dataDir: string, name = 'Pharmacie du Plateau') {
  const created = await admin(
    dataDir,
    'create-user',
    '--phone',
    newPhone(),
    '--first-name',
    'Koffi',
    '--last-name',
    'Yao',
    '--business-name',
    `${name} ${randomUUID().slice(0, 6)}`,
  );
  return created as { userId: string; phone: string; businessId: string; storeId: string };
}

/**
 * The one-time code of a link request, as the owner's phone got it: read from the local host's SMS
 * inbox (the sandbox gateway's record), waiting for the SMS worker to have sent it.
 */
export async function smsCodeFor(baseUrl: string, requestId: string, timeoutMs = 20_000): Promise<string> {
  const pattern = new RegExp(`Code : (\\d{6})\\. R[^<]*?/lr/${requestId}`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await (await fetch(`${baseUrl}/__local/sms`)).text();
    const code = pattern.exec(page)?.[1];
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no SMS with a code for link request ${requestId}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
