import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TransactionRecord } from '#shared/data/transaction-record.ts';
import { measureUnits, useBenchTable } from '#test/bench/bench-dynamodb.ts';
import type { Bench } from '#test/bench/report.ts';

/** Histories of these sizes, spread evenly over the 90 days of the window. */
const historySizes = [1_000, 100_000];
const rangeDays = 90;
const dayMs = 24 * 60 * 60 * 1000;
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/**
 * A full collection on demand, to read what the export keeps alive (a sampled `heapUsed` also
 * holds garbage not yet collected, whose size is the collector's choice, not the code's).
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

export interface ExportCostRow {
  rows: number;
  fileMb: number;
  seconds: number;
  rowsPerSecond: number;
  readUnits: number;
  queries: number;
  heapUsedPeakMb: number;
  heapGrowthMb: number;
  /** The most the heap held after a full collection, taken 20 times along the file, over the start. */
  retainedGrowthMb: number;
  rssPeakMb: number;
  rssGrowthMb: number;
}

function* history(
  businessId: string,
  storeId: string,
  size: number,
  start: number,
  end: number,
  linkIds: readonly string[],
) {
  for (let i = 0; i < size; i++) {
    const createdAt = new Date(start + Math.floor(((end - start) * i) / size)).toISOString();
    const record: TransactionRecord = {
      id: randomUUID(),
      businessId,
      storeId,
      type: 'payment',
      status: 'success',
      amount: { amount: 150_000 + (i % 7) * 25, currency: 'XOF' },
      fees: { amount: 1_500, currency: 'XOF' },
      currency: 'XOF',
      paymentMethod: i % 2 === 0 ? 'wave' : 'orange_money',
      counterpartLabel: 'Élodie Koné',
      counterpartIdentifier: '+2250700000001',
      description: `Paiement commande-${i}, « table 4 »`,
      reference: `commande-${i}`,
      createdAt,
      transactionDetails: {
        id: randomUUID(),
        reference: `commande-${i}`,
        // Every tenth payment through one of ten links: the export reads their titles once.
        ...(i % 10 === 0 ? { paymentLinkId: linkIds[(i / 10) % linkIds.length] } : {}),
      },
      paymentRequestId: randomUUID(),
    };
    yield record;
  }
}

/**
 * The CSV export of a 90-day window at 1,000 and 100,000 transactions: the whole file streamed by
 * the product's operation (`exportStream`, the same the page pipes to its response) into a sink
 * that counts bytes, timed, with the process's memory sampled every 20 ms, and the heap's live size
 * read after a full collection 20 times along the file. Flat memory means what the export keeps
 * alive for 100,000 rows is what it keeps for 1,000: a page of records, the writer's buffer and the
 * titles of the business's ten payment links (a tenth of the payments came through one). The file
 * is written as a French merchant gets it (`;`, French headers). The history is seeded with batch
 * writes in the completion's layout (test/support/transaction-history.ts), from a generator.
 */
async function measureExport(): Promise<ExportCostRow[]> {
  const { writeTransactionHistory } = await import('#test/support/transaction-history.ts');
  const { exportStream } = await import('#shared/operations/transaction-export.ts');
  const { documentClient, tableName } = await import('#shared/aws/dynamodb.ts');
  const end = Date.parse('2026-10-31T23:59:59.000Z');
  const start = end - rangeDays * dayMs + 1000;
  const results: ExportCostRow[] = [];
  for (const size of historySizes) {
    await useBenchTable(`bench-export-${size}`);
    const businessId = randomUUID();
    const storeId = randomUUID();
    // Ten payment links: a tenth of the payments came through one, and the file names what was sold.
    const linkIds = Array.from({ length: 10 }, () => randomUUID());
    for (const [index, id] of linkIds.entries())
      await documentClient.send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            pk: `BIZ#${businessId}`,
            sk: `PLINK#${id}`,
            entity: 'payment_link',
            id,
            title: `Panier ${index}`,
          },
        }),
      );
    await writeTransactionHistory(history(businessId, storeId, size, start, end, linkIds));
    collectGarbage();
    const before = process.memoryUsage();
    let retainedPeak = before.heapUsed;
    const collectEvery = Math.max(1, Math.floor(size / 20));
    let heapPeak = before.heapUsed;
    let rssPeak = before.rss;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      heapPeak = Math.max(heapPeak, now.heapUsed);
      rssPeak = Math.max(rssPeak, now.rss);
    }, 20);
    let bytes = 0;
    let lines = 0;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        for (const byte of chunk) {
          if (byte !== 0x0a) continue;
          lines++;
          if (lines % collectEvery === 0) {
            collectGarbage();
            retainedPeak = Math.max(retainedPeak, process.memoryUsage().heapUsed);
          }
        }
        callback();
      },
    });
    const member = {
      businessId,
      businessName: 'Bench',
      memberId: randomUUID(),
      userId: randomUUID(),
      role: 'owner' as const,
      isServiceProvider: false,
      verificationLevel: 1,
    };
    const t = performance.now();
    const { units } = await measureUnits(async () => {
      const { body } = exportStream(
        member,
        {
          filters: {
            from: new Date(start).toISOString().slice(0, 10),
            to: new Date(end).toISOString().slice(0, 10),
          },
          stores: [],
          counted: size,
          asOf: new Date(end + dayMs).toISOString(),
        },
        '127.0.0.1',
        { language: 'fr', separator: 'semicolon' },
      );
      await pipeline(body, sink);
    });
    const seconds = (performance.now() - t) / 1000;
    clearInterval(sampler);
    // Lines: the header's and the rows', each ended by CRLF (no description here holds a line break).
    if (lines - 1 !== size) throw new Error(`exported ${lines - 1} rows, seeded ${size}`);
    results.push({
      rows: size,
      fileMb: mb(bytes),
      seconds: Math.round(seconds * 10) / 10,
      rowsPerSecond: Math.round(size / seconds),
      readUnits: Math.round(units.awsRead),
      queries: units.calls.length,
      heapUsedPeakMb: mb(heapPeak),
      heapGrowthMb: mb(heapPeak - before.heapUsed),
      retainedGrowthMb: mb(retainedPeak - before.heapUsed),
      rssPeakMb: mb(rssPeak),
      rssGrowthMb: mb(rssPeak - before.rss),
    });
  }
  return results;
}

export const transactionExport: Bench = async () => {
  const rows = await measureExport();
  return {
    name: 'transactionExport',
    title: `Transaction CSV export, one business, a ${rangeDays}-day window, streamed to a sink: time, read units and peak memory`,
    columns: [
      'rows',
      'file MB',
      'seconds',
      'rows/s',
      'read units',
      'queries',
      'heap peak MB',
      'heap growth MB',
      'retained growth MB',
      'RSS peak MB',
      'RSS growth MB',
    ],
    rows: rows.map((r) => [
      r.rows,
      r.fileMb,
      r.seconds,
      r.rowsPerSecond,
      r.readUnits,
      r.queries,
      r.heapUsedPeakMb,
      r.heapGrowthMb,
      r.retainedGrowthMb,
      r.rssPeakMb,
      r.rssGrowthMb,
    ]),
    data: rows,
  };
};
