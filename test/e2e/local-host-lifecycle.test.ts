import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/paths.ts';
import { admin, newDataDir, startLocalHost } from '#test/support/local-host.ts';

const execFileAsync = promisify(execFile);

async function answers(url: string) {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

async function javaProcessesUsing(dataDir: string) {
  const { stdout } = await execFileAsync('ps', ['-eo', 'args']);
  return stdout.split('\n').filter((line) => line.includes('DynamoDBLocal') && line.includes(dataDir));
}

describe('the local host', () => {
  it('stops on Ctrl-C without leaving DynamoDB Local behind, and a restart keeps the data and the demo', async () => {
    const dataDir = newDataDir();
    const first = await startLocalHost(dataDir);
    const { storeId } = await admin(
      dataDir,
      'create-store',
      '--business',
      first.config.demo.businessId,
      '--name',
      'Kept across restarts',
    );

    expect(await first.stop()).toBe(0);
    expect(await answers(first.config.endpoints.dynamodb)).toBe(false);
    expect(await javaProcessesUsing(dataDir)).toEqual([]);

    const second = await startLocalHost(dataDir);
    try {
      expect(second.config.demo).toEqual(first.config.demo);
      expect(second.output()).toContain('The demo business from the last run');
      const response = await fetch(`${second.config.baseUrl}/partner_api/stores`, {
        headers: { 'X-API-KEY-ID': second.config.demo.apiKeyId, 'X-API-KEY': second.config.demo.apiKey },
      });
      const stores = (await response.json()) as { id: string }[];
      expect(stores.map((s) => s.id).sort()).toEqual([first.config.demo.storeId, storeId].sort());
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('lets the admin command work on its data while it is stopped', async () => {
    const dataDir = newDataDir();
    const host = await startLocalHost(dataDir);
    await host.stop();
    const { businessId } = await admin(dataDir, 'create-business', '--name', 'Created offline');
    expect(businessId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await javaProcessesUsing(dataDir)).toEqual([]);
  });

  it('says what is missing when Java is not installed', async () => {
    const withoutJava = { ...process.env, PATH: dirname(process.execPath), DATA_DIR: newDataDir() };
    const error = await execFileAsync(process.execPath, ['--import', 'tsx', 'infra/local/main.ts'], {
      cwd: projectRoot,
      env: withoutJava,
    }).then(
      () => undefined,
      (failure: { code: number; stderr: string }) => failure,
    );
    expect(error?.code).toBe(1);
    expect(error?.stderr).toContain('DynamoDB Local needs a Java runtime (17 or newer)');
  });
});
