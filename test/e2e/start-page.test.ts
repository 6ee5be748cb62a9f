import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/paths.ts';
import { type LocalHost, newDataDir, startLocalHost } from '#test/support/local-host.ts';
import { testHostEnv } from '#test/support/local-host-global-setup.ts';

const execFileAsync = promisify(execFile);

/*
 * A host of its own: the steps pay into the demo business, which the shared host's tests expect
 * untouched (a zero balance among them).
 */
let host: LocalHost;

beforeAll(async () => {
  host = await startLocalHost(newDataDir(), testHostEnv);
});

afterAll(async () => {
  await host?.stop();
});

const asBrowser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

const hrefs = (page: string) => [...page.matchAll(/<a href="([^"]*)"/g)].map((match) => match[1] as string);

/** Runs shell commands as a terminal would, with curl and node on the PATH. */
async function shell(script: string): Promise<string> {
  const { stdout } = await execFileAsync('sh', ['-c', script], {
    cwd: projectRoot,
    env: { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` },
    timeout: 30_000,
  });
  return stdout;
}

interface ReceiverLog {
  deliveries: {
    event: string;
    verified: boolean;
    body: { status: string; transactionDetails: { id: string } };
  }[];
}

/** Runs the "see the webhook" step until the demo receiver shows the payment's verified delivery. */
async function webhookSeen(step: string, paymentRequestId: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const log = JSON.parse(await shell(step)) as ReceiverLog;
    const delivery = log.deliveries.find((entry) => entry.body?.transactionDetails?.id === paymentRequestId);
    if (delivery) return delivery;
    if (Date.now() > deadline) throw new Error(`no webhook for ${paymentRequestId}: ${JSON.stringify(log)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Creating the payment prints its id; approving it prints the request, paid. */
function expectPaid(output: string): string {
  const [paymentRequestId = '', approved = ''] = output.trim().split('\n');
  expect(paymentRequestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(JSON.parse(approved)).toMatchObject({ id: paymentRequestId, status: 'success' });
  return paymentRequestId;
}

describe('the local host’s start page, /', () => {
  it('is an HTML page that links every local tool, each of which answers', async () => {
    const response = await fetch(`${host.config.baseUrl}/`, { headers: asBrowser });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await response.text();
    const links = hrefs(page);
    const { demo } = host.config;
    for (const tool of [
      '/docs',
      '/openapi.json',
      '/__local/webhooks',
      '/__local/soundbox/SoundBox-Demo-01',
      '/__local/broker',
      '#demo-values',
    ]) {
      expect(links).toContain(tool);
    }
    expect(links.some((link) => link.startsWith('/__local/sms'))).toBe(true);
    expect(page).toContain('id="demo-values"');
    for (const value of [demo.apiKeyId, demo.apiKey, demo.storeId, demo.businessId])
      expect(page).toContain(value);
    for (const link of links.filter((href) => href.startsWith('/'))) {
      const tool = await fetch(`${host.config.baseUrl}${link}`, { headers: asBrowser });
      expect(tool.status, link).toBe(200);
      await tool.arrayBuffer();
    }
  });

  it('answers in English to an English browser, and leaves every other method on / to the API', async () => {
    const english = await (
      await fetch(`${host.config.baseUrl}/`, { headers: { ...asBrowser, 'accept-language': 'en-GB' } })
    ).text();
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('Local tools');
    const french = await (await fetch(`${host.config.baseUrl}/?lang=fr`, { headers: asBrowser })).text();
    expect(french).toContain('Outils locaux');

    const post = await fetch(`${host.config.baseUrl}/`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(404);
    expect(await post.json()).toEqual({ id: 'not_found', message: 'Route not found', extras: null });
  });
});

describe('the demo webhook receiver’s address, /__local/webhooks', () => {
  it('shows a browser a page of what it received, escaped, where it used to answer 401', async () => {
    const url = `${host.config.baseUrl}/__local/webhooks`;
    const refused = await fetch(url, {
      method: 'POST',
      headers: { 'svc-event': '<script>alert(1)</script>', 'svc-signature': 'not-a-signature' },
      body: '{"id":"<img src=x onerror=alert(1)>"}',
    });
    expect(refused.status).toBe(401);

    const response = await fetch(url, { headers: asBrowser });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await response.text();
    expect(page).toMatch(/Demo webhook receiver|Récepteur de webhooks de démonstration/);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img');

    const json = await fetch(url);
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(((await json.json()) as ReceiverLog).deliveries[0]).toMatchObject({
      event: '<script>alert(1)</script>',
      verified: false,
    });
  });
});

describe('the three steps from a payment to its webhook', () => {
  it('as the banner prints them, pasted into a shell, pay and show the signed webhook', {
    timeout: 90_000,
  }, async () => {
    const output = host.output();
    const banner = output.slice(output.indexOf('From a payment to its webhook'), output.indexOf('Ctrl-C'));
    const steps = banner
      .split(/\n {2}\d\. [^\n]*\n/)
      .slice(1)
      .map((step) => step.replace(/^ {5}/gm, '').trim());
    expect(steps).toHaveLength(3);
    for (const step of steps) expect(step).toContain(host.config.baseUrl);
    expect(steps[0]).toContain(host.config.demo.apiKey);
    expect(steps[0]).toContain(host.config.demo.storeId);

    const paymentRequestId = expectPaid(await shell(`${steps[0]}\n${steps[1]}`));
    const delivery = await webhookSeen(steps[2] as string, paymentRequestId);
    expect(delivery).toMatchObject({
      event: 'TRANSACTION_COMPLETED',
      verified: true,
      body: { status: 'success' },
    });
  });

  it('as the README writes them, run as written, pay and show the signed webhook', {
    timeout: 90_000,
  }, async () => {
    const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## From a payment to its webhook'));
    const blocks = [...section.slice(0, section.indexOf('\n## ', 1)).matchAll(/```sh\n([\s\S]*?)```/g)].map(
      (match) => match[1] as string,
    );
    expect(blocks).toHaveLength(4);
    const [values = '', create = '', approve = '', see = ''] = blocks;
    // The README reads the values from the default data folder; this host keeps them in its own.
    expect(values).toContain('. .data/demo.env');
    const ownValues = values.replace('. .data/demo.env', `. '${host.dataDir}/demo.env'`);

    const paymentRequestId = expectPaid(await shell(`${ownValues}\n${create}\n${approve}`));
    const delivery = await webhookSeen(`${ownValues}\n${see}`, paymentRequestId);
    expect(delivery).toMatchObject({
      event: 'TRANSACTION_COMPLETED',
      verified: true,
      body: { status: 'success' },
    });
  });
});
