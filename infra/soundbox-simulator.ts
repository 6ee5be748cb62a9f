/**
 * `npm run soundbox -- --device <id>`: a soundbox in a terminal. Connects to the broker as the
 * device, draws each QR it is sent, prints each announcement and, where the machine has a speech
 * command (say, espeak-ng, espeak, spd-say, PowerShell), says it in French; sends a heartbeat every
 * 30 s, as a real device does. The local host's demo device needs nothing more; any other device
 * takes the JSON `admin create-device --json` printed (`--credentials file.json`, which also works
 * for a device on a deployed stage, with its certificate), or `--password`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import mqtt from 'mqtt';
import QRCode from 'qrcode';
import {
  type AnnouncementMessage,
  type DisplayMessage,
  heartbeatIntervalMs,
  soundboxTopics,
} from '#shared/domain/soundbox.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { localStageName } from '#shared/stage.ts';
import type { DeviceProvisioning } from './admin-device.ts';
import { localDataDir, readLocalConfig } from './local/local-config.ts';

const usage = `Usage: npm run soundbox -- --device ID [--credentials FILE | --password P] [--url URL] [--mute]

  --device ID         the device to play (the local host's demo device needs nothing more)
  --credentials FILE  what \`npm run admin -- create-device ... --json\` printed for it
  --password P        its broker password on the local host
  --url URL           the broker (default: the running local host's)
  --mute              print announcements without speaking them`;

const { values } = parseArgs({
  options: {
    device: { type: 'string' },
    credentials: { type: 'string' },
    password: { type: 'string' },
    url: { type: 'string' },
    mute: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

if (values.help) {
  console.log(usage);
  process.exit(0);
}

function provisioning(): DeviceProvisioning {
  if (values.credentials) {
    const saved = JSON.parse(readFileSync(values.credentials, 'utf8')) as DeviceProvisioning;
    if (values.device && values.device !== saved.deviceId)
      fail(`${values.credentials} is for ${saved.deviceId}`);
    return saved;
  }
  const deviceId = values.device ?? fail('--device is required');
  const local = readLocalConfig(localDataDir());
  const password =
    values.password ?? (local?.demo.deviceId === deviceId ? local.demo.devicePassword : undefined);
  if (!password) fail(`no credentials for ${deviceId}: give --credentials or --password`);
  const url = values.url ?? local?.endpoints.mqtt ?? fail('the local host is not running: give --url');
  return {
    deviceId,
    mqtt: { url, clientId: deviceId, username: deviceId, password },
    topics: soundboxTopics(localStageName, deviceId),
  };
}

const device = provisioning();
const topics = device.topics;

const speaker = values.mute ? undefined : findSpeaker();

function findSpeaker(): ((text: string) => void) | undefined {
  const has = (command: string) => spawnSync(command, ['--version'], { stdio: 'ignore' }).error === undefined;
  const run = (command: string, args: string[]) => () => spawn(command, args, { stdio: 'ignore' }).unref();
  if (process.platform === 'darwin') return (text) => run('say', ['-v', 'Thomas', text])();
  if (process.platform === 'win32') {
    return (text) =>
      run('powershell', [
        '-NoProfile',
        '-Command',
        `Add-Type -AssemblyName System.Speech; (New-Object System.Speech.Synthesis.SpeechSynthesizer).Speak(${JSON.stringify(text)})`,
      ])();
  }
  for (const [command, args] of [
    ['espeak-ng', ['-v', 'fr']],
    ['espeak', ['-v', 'fr']],
    ['spd-say', ['-l', 'fr']],
  ] as const) {
    if (has(command)) return (text) => run(command, [...args, text])();
  }
  return undefined;
}

const client = mqtt.connect(device.mqtt.url, {
  clientId: device.mqtt.clientId,
  username: device.mqtt.username,
  password: device.mqtt.password,
  ...(device.certificatePem ? { cert: device.certificatePem, key: device.privateKey } : {}),
  protocolVersion: 4,
  // The session is kept while the device is away, so QoS 1 messages sent meanwhile still arrive.
  clean: false,
  reconnectPeriod: 2_000,
});

const heartbeat = () =>
  client.publish(topics.status, JSON.stringify({ type: 'heartbeat', at: new Date().toISOString() }), {
    qos: 1,
  });

client.on('connect', () => {
  console.log(`${device.deviceId}: connected to ${device.mqtt.url}; waiting for payments (Ctrl-C to stop)`);
  client.subscribe([topics.display, topics.announce], { qos: 1 });
  heartbeat();
});
client.on('offline', () => console.log(`${device.deviceId}: offline, reconnecting...`));
client.on('error', (error) => console.error(`${device.deviceId}: ${error.message}`));
setInterval(heartbeat, heartbeatIntervalMs).unref();

client.on('message', (topic, payload) => {
  if (topic === topics.display) {
    if (payload.length === 0) return void console.log('\n(display cleared)\n');
    void show(JSON.parse(payload.toString()) as DisplayMessage);
  } else if (topic === topics.announce) {
    const message = JSON.parse(payload.toString()) as AnnouncementMessage;
    console.log(`\n>>> ${message.text.fr}   (${message.text.en})\n`);
    speaker?.(message.text.fr);
  }
});

async function show(message: DisplayMessage) {
  const qr = await QRCode.toString(message.qr, { type: 'terminal', small: true, errorCorrectionLevel: 'M' });
  console.log(`\n${qr}`);
  console.log(`  ${formatAmount(message.amount, message.currency)}   réf. ${message.reference}`);
  console.log(`  ${message.qr}`);
  console.log(`  valable jusqu'à ${new Date(message.expiresAt).toLocaleTimeString('fr-FR')}\n`);
}

const stop = () => client.end(false, {}, () => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
