import { performance } from 'node:perf_hooks';
import { type Bench, percentile } from '#test/bench/report.ts';
import { newDataDir, startLocalHost } from '#test/support/local-host.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

/** Bounded loops against loopback only; every figure is a median or a percentile of several runs. */
const startRuns = 3;
const requestsPerEndpoint = 300;
const throughputSeconds = 3;
const concurrency = 8;

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

export interface LocalHostBench {
  startMs: { firstStart: number; restartMedian: number };
  latency: { endpoint: string; p50: number; p95: number; p99: number; requestsPerSecond: number }[];
}

/** Start time of `npm start` (first start seeds the demo; restarts reuse it) and request latency. */
async function measureLocalHost(): Promise<LocalHostBench> {
  const dataDir = newDataDir();
  const starts: number[] = [];
  let t = performance.now();
  let host = await startLocalHost(dataDir);
  const firstStart = performance.now() - t;
  for (let run = 0; run < startRuns; run++) {
    await host.stop();
    t = performance.now();
    host = await startLocalHost(dataDir);
    starts.push(performance.now() - t);
  }

  const { baseUrl, demo } = host.config;
  const headers = { 'X-API-KEY-ID': demo.apiKeyId, 'X-API-KEY': demo.apiKey };
  let counter = 0;
  const paymentRequest = () =>
    redirectRequestBody(demo.storeId, { reference: `bench-${process.pid}-${counter++}` });
  const created = await fetch(`${baseUrl}/partner_api/payment_requests`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(paymentRequest()),
  });
  const { id: paymentRequestId } = (await created.json()) as { id: string };
  const endpoints: { name: string; request: () => [string, RequestInit] }[] = [
    { name: 'GET /partner_api/stores', request: () => ['/partner_api/stores', { headers }] },
    { name: 'GET /partner_api/devices', request: () => ['/partner_api/devices', { headers }] },
    {
      name: 'GET /partner_api/stores/{storeId}/balance',
      request: () => [`/partner_api/stores/${demo.storeId}/balance`, { headers }],
    },
    {
      name: 'POST /partner_api/payment_requests',
      request: () => [
        '/partner_api/payment_requests',
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(paymentRequest()),
        },
      ],
    },
    {
      name: 'GET /partner_api/payment_requests/{id}',
      request: () => [`/partner_api/payment_requests/${paymentRequestId}`, { headers }],
    },
  ];
  const latency: LocalHostBench['latency'] = [];
  try {
    for (const endpoint of endpoints) {
      const call = async () => {
        const [path, init] = endpoint.request();
        const response = await fetch(`${baseUrl}${path}`, init);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${endpoint.name} answered ${response.status}`);
      };
      for (let i = 0; i < 20; i++) await call();
      const times: number[] = [];
      for (let i = 0; i < requestsPerEndpoint; i++) {
        const start = performance.now();
        await call();
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      let done = 0;
      const until = performance.now() + throughputSeconds * 1000;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (performance.now() < until) {
            await call();
            done++;
          }
        }),
      );
      latency.push({
        endpoint: endpoint.name,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        p99: percentile(times, 99),
        requestsPerSecond: done / throughputSeconds,
      });
    }
  } finally {
    await host.stop();
  }
  return { startMs: { firstStart, restartMedian: median(starts) }, latency };
}

export const localHost: Bench = async () => {
  const result = await measureLocalHost();
  return {
    name: 'localHost',
    title: `Local host: first start (seeding) ${Math.round(result.startMs.firstStart)} ms, restart median ${Math.round(result.startMs.restartMedian)} ms; request latency over ${requestsPerEndpoint} sequential requests, throughput with ${concurrency} concurrent clients`,
    columns: ['endpoint', 'p50 ms', 'p95 ms', 'p99 ms', 'requests/s'],
    rows: result.latency.map((l) => [l.endpoint, l.p50, l.p95, l.p99, l.requestsPerSecond]),
    data: result,
  };
};
