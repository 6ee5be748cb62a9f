import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local broker's device registry: one password per device, kept as a salted scrypt hash in
 * `DATA_DIR/device-credentials.json` (what IoT Core's certificate registry is on AWS). The password
 * itself is shown once, by whoever issues it; the admin command and the host both write here, and
 * the broker reads it at each connection, so a device created while the host runs can connect at once.
 */
interface StoredCredential {
  salt: string;
  hash: string;
}

const fileOf = (dataDir: string) => join(dataDir, 'device-credentials.json');

function readAll(dataDir: string): Record<string, StoredCredential> {
  const file = fileOf(dataDir);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, StoredCredential>) : {};
}

const hashOf = (password: string, salt: string) => scryptSync(password, salt, 32).toString('hex');

/** A new password for the device (replacing any former one), answered once. */
export function issueDeviceCredentials(
  dataDir: string,
  deviceId: string,
): { username: string; password: string } {
  const password = randomBytes(24).toString('base64url');
  const salt = randomBytes(16).toString('hex');
  const all = { ...readAll(dataDir), [deviceId]: { salt, hash: hashOf(password, salt) } };
  mkdirSync(dataDir, { recursive: true });
  // Written whole or not at all, so the broker never reads half a file.
  const temporary = `${fileOf(dataDir)}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, fileOf(dataDir));
  return { username: deviceId, password };
}

export function deviceCredentialsValid(dataDir: string, deviceId: string, password: string): boolean {
  const stored = readAll(dataDir)[deviceId];
  if (!stored) return false;
  return timingSafeEqual(Buffer.from(hashOf(password, stored.salt), 'hex'), Buffer.from(stored.hash, 'hex'));
}
