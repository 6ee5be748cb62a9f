import { afterEach, describe, expect, it, vi } from 'vitest';
import { count, publishMetrics, withMetrics } from '#shared/metrics.ts';

/** The EMF documents written to stdout while `run` runs. */
async function emitted(run: () => Promise<unknown> | unknown): Promise<Array<Record<string, unknown>>> {
  const lines: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await run();
  } finally {
    write.mockRestore();
  }
  return lines
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.includes('"_aws"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const metricNames = (document: Record<string, unknown>) =>
  (
    document._aws as { CloudWatchMetrics: Array<{ Metrics: Array<{ Name: string }> }> }
  ).CloudWatchMetrics.flatMap((set) => set.Metrics.map((metric) => metric.Name));

afterEach(() => vi.restoreAllMocks());

describe('metrics as CloudWatch embedded metric format on stdout', () => {
  it('writes a dimensioned count at once, with its outcome and provider', async () => {
    const [document] = await emitted(() =>
      count('PaymentsCompleted', { outcome: 'success', provider: 'wave' }),
    );
    expect(document).toMatchObject({ PaymentsCompleted: 1, outcome: 'success', provider: 'wave' });
    expect(metricNames(document ?? {})).toEqual(['PaymentsCompleted']);
    expect(JSON.stringify(document?._aws)).toContain('PartnerPayments');
  });

  it('keeps plain counts until the invocation ends, then writes them together, once', async () => {
    const handler = withMetrics(async () => {
      count('LedgerConflicts');
      count('LedgerRetries');
      count('LedgerRetries');
      return 'answered';
    });
    let answer: unknown;
    const documents = await emitted(async () => {
      answer = await handler({}, {});
    });
    expect(answer).toBe('answered');
    expect(documents).toHaveLength(1);
    // EMF keeps each count of one name as a value of a list; CloudWatch sums them.
    expect(documents[0]).toMatchObject({ LedgerConflicts: 1, LedgerRetries: [1, 1] });
    // Nothing left over for the next invocation, and nothing written when nothing was counted.
    expect(await emitted(() => publishMetrics())).toEqual([]);
  });

  it('writes what a failed invocation counted, and still fails it', async () => {
    const handler = withMetrics(async () => {
      count('WebhookAttempts');
      throw new Error('receiver down');
    });
    let failure: unknown;
    const documents = await emitted(() => handler({}, {}).catch((error: unknown) => (failure = error)));
    expect(failure).toBeInstanceOf(Error);
    expect(documents[0]).toMatchObject({ WebhookAttempts: 1 });
  });
});

describe('the stage dimension', () => {
  it("is on every metric, plain or dimensioned, so stages sharing an account never count into each other's alarms", async () => {
    vi.stubEnv('STAGE', 'staging');
    vi.resetModules();
    try {
      const staged = await import('#shared/metrics.ts');
      const [single] = await emitted(() => staged.count('PaymentsCompleted', { outcome: 'success' }));
      const plain = await emitted(() => {
        staged.count('LedgerRetries');
        staged.publishMetrics();
      });
      for (const document of [single, plain[0]]) {
        expect(document).toMatchObject({ stage: 'staging', service: 'partner-payments' });
        const aws = document?._aws as { CloudWatchMetrics: Array<{ Dimensions: string[][] }> } | undefined;
        const dimensionSets = aws?.CloudWatchMetrics[0]?.Dimensions;
        expect(dimensionSets?.[0]).toContain('stage');
      }
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});
