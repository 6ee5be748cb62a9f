import type { DemoCredentials } from './local-config.ts';

/**
 * The newcomer's first payment on the local host, as shell commands with the demo's values in
 * them: create a payment request with the demo key, approve it in the sandbox as the payer would,
 * see the signed webhook the demo receiver got. The start banner and the start page print the
 * same commands; `demo.env` gives the README's version of them the same values.
 */
export interface FirstPaymentStep {
  title: { en: string; fr: string };
  command: string;
}

/** The payer's number that the sandbox pays with (see the sandbox's test numbers). */
export const sandboxPayingPhone = '+2250700000001';

/** A string quoted for a POSIX shell: whatever it holds, the shell reads it back unchanged. */
export const shellQuoted = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/** Reads a JSON answer on stdin and prints its `id`, or the whole answer when it has none (an error). */
const idOfAnswer = shellQuoted(
  'const r = JSON.parse(require("fs").readFileSync(0, "utf8")); r.id ?? JSON.stringify(r)',
);

export function firstPaymentSteps(
  baseUrl: string,
  demo: DemoCredentials,
  receiverPath: string,
): FirstPaymentStep[] {
  const keyHeaders = `-H ${shellQuoted(`X-API-KEY-ID: ${demo.apiKeyId}`)} -H ${shellQuoted(`X-API-KEY: ${demo.apiKey}`)}`;
  // A reference is unique per business: the time in seconds makes each run of the step a new one.
  const body = shellQuoted(
    JSON.stringify({
      storeId: demo.storeId,
      amountCents: 150_000,
      currency: 'XOF',
      reference: 'order-TIME',
      paymentDetails: {
        type: 'redirect',
        data: {
          paymentMethod: 'wave',
          successUrl: 'https://shop.example/paid',
          errorUrl: 'https://shop.example/failed',
        },
      },
    }),
    // The shell's pid beside the second: two runs in the same second (a script, a test) do not reuse a reference.
  ).replace('order-TIME', `order-'"$(date +%s)-$$"'`);
  return [
    {
      title: {
        en: 'Create a payment request of 1 500 F CFA (amounts are in cents: 150000); PR keeps its id',
        fr: 'Créer une demande de paiement de 1 500 F CFA (montants en centimes : 150000) ; PR garde son id',
      },
      command: [
        `PR=$(curl -s ${baseUrl}/partner_api/payment_requests \\`,
        `  ${keyHeaders} -H 'content-type: application/json' \\`,
        `  -d ${body} \\`,
        `  | node -p ${idOfAnswer}); echo "$PR"`,
      ].join('\n'),
    },
    {
      title: {
        en: `Approve it in the sandbox, as the payer would (${sandboxPayingPhone} pays): the answer reads "status":"success"`,
        fr: `L'approuver dans le bac à sable, comme le payeur (${sandboxPayingPhone} paie) : la réponse dit "status":"success"`,
      },
      command: [
        `curl -s -X POST "${baseUrl}/sandbox/payment_requests/$PR/approve" \\`,
        `  ${keyHeaders} -H 'content-type: application/json' \\`,
        `  -d '{"payerPhone":"${sandboxPayingPhone}"}'; echo`,
      ].join('\n'),
    },
    {
      title: {
        en: `See the signed webhook the demo receiver got (or open ${baseUrl}${receiverPath} in a browser)`,
        fr: `Voir le webhook signé reçu par le récepteur de démonstration (ou ouvrir ${baseUrl}${receiverPath} dans un navigateur)`,
      },
      command: `curl -s ${baseUrl}${receiverPath}`,
    },
  ];
}

/**
 * `DATA_DIR/demo.env`, for a shell: `. .data/demo.env` sets BASE, KEY_ID, KEY, STORE, BUSINESS
 * and DEVICE, the names the README's commands use. Rewritten on every start (the port may change).
 */
export function demoEnv(baseUrl: string, demo: DemoCredentials): string {
  const values = {
    BASE: baseUrl,
    KEY_ID: demo.apiKeyId,
    KEY: demo.apiKey,
    STORE: demo.storeId,
    BUSINESS: demo.businessId,
    DEVICE: demo.deviceId,
  };
  return [
    '# The demo business of the local host (npm start rewrites this file on every start).',
    '# In a shell: . .data/demo.env',
    ...Object.entries(values).map(([name, value]) => `${name}=${shellQuoted(value)}`),
    '',
  ].join('\n');
}
