import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import QRCode from 'qrcode';
import { soundboxTopics } from '#shared/domain/soundbox.ts';
import { escapeHtml } from '#shared/pages/html.ts';
import { providerNames } from '#shared/pages/messages.ts';
import { localStageName } from '#shared/stage.ts';

/**
 * The soundbox simulator in a browser: `/__local/soundbox/<deviceId>` connects to the local broker
 * over WebSocket as the device (its credentials: the demo device's are built in, another device's
 * come after `#password=` in the address, which never reaches a server), shows the QR large with
 * the amount and the store, and speaks each announcement in French with the browser's speech
 * synthesis. The QR image is drawn by the host (`qr.svg`) with the same library the terminal
 * simulator uses.
 */
export const soundboxPagePrefix = '/__local/soundbox/';

const require = createRequire(import.meta.url);
const mqttBundle = require.resolve('mqtt/dist/mqtt.min');

export interface SoundboxPageContext {
  webSocketUrl: string;
  /** The device's store name, if the device is registered. */
  storeName(deviceId: string): Promise<string | undefined>;
  /** A password the host knows for the device (the demo's), if any. */
  knownPassword(deviceId: string): string | undefined;
}

export async function serveSoundboxPage(
  request: IncomingMessage,
  response: ServerResponse,
  context: SoundboxPageContext,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const rest = url.pathname.slice(soundboxPagePrefix.length);
  if (rest === 'mqtt.min.js') {
    return send(response, 200, 'text/javascript; charset=utf-8', await readFile(mqttBundle));
  }
  if (rest === 'simulator.js') return send(response, 200, 'text/javascript; charset=utf-8', simulatorScript);
  if (rest === 'qr.svg') {
    const text = url.searchParams.get('text') ?? '';
    if (!text) return send(response, 400, 'text/plain', 'text is required');
    const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return send(response, 200, 'image/svg+xml', svg);
  }
  const deviceId = decodeURIComponent(rest);
  const storeName = await context.storeName(deviceId);
  if (!storeName)
    return send(response, 404, 'text/html; charset=utf-8', `<p>Unknown device ${escapeHtml(deviceId)}</p>`);
  const config = {
    deviceId,
    topics: soundboxTopics(localStageName, deviceId),
    storeName,
    webSocketUrl: context.webSocketUrl,
    password: context.knownPassword(deviceId) ?? null,
    providerNames,
  };
  send(response, 200, 'text/html; charset=utf-8', page(config));
}

function send(response: ServerResponse, status: number, type: string, body: string | Buffer) {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  response.end(body);
}

function page(config: Record<string, unknown>): string {
  // In a script element, only "<" could end it early: escaped, the JSON stays exact.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Soundbox ${escapeHtml(String(config.deviceId))}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; background: #111; color: #f4f4f4; text-align: center; }
  header { padding: 12px; background: #222; display: flex; justify-content: space-between; align-items: center; gap: 8px; }
  #status { font-size: 14px; }
  #status[data-state="online"] { color: #6ee7a1; }
  main { padding: 16px; }
  #qr { width: min(80vw, 60vh); height: min(80vw, 60vh); background: #fff; border-radius: 12px; }
  #amount { font-size: 44px; font-weight: 700; margin: 12px 0 4px; white-space: nowrap; }
  #apps, #expires { font-size: 18px; margin: 4px auto; max-width: 640px; }
  #expires { color: #d1d5db; }
  .nowrap { white-space: nowrap; }
  #announcement { font-size: 28px; margin: 16px auto; padding: 16px; border-radius: 12px; max-width: 640px; }
  #announcement[data-type="payment_received"] { background: #14532d; }
  #announcement[data-type="payment_failed"] { background: #7f1d1d; }
  button { font-size: 16px; padding: 8px 12px; border-radius: 8px; border: 0; }
  [hidden] { display: none !important; }
</style>
</head>
<body>
<header><strong id="store"></strong><span id="status">Connexion…</span><button id="sound" type="button">Activer le son</button></header>
<main>
  <p id="idle">En attente d'un paiement</p>
  <section id="display" hidden>
    <img id="qr" alt="QR code à scanner">
    <div id="amount"></div>
    <p id="apps"></p>
    <p id="expires"></p>
    <div id="reference"></div>
  </section>
  <div id="announcement" role="status" hidden></div>
</main>
<script type="application/json" id="config">${json}</script>
<script src="mqtt.min.js"></script>
<script src="simulator.js"></script>
</body>
</html>`;
}

const simulatorScript = `'use strict';
(() => {
  const config = JSON.parse(document.getElementById('config').textContent);
  const fragment = new URLSearchParams(location.hash.slice(1));
  const password = fragment.get('password') || config.password;
  const $ = (id) => document.getElementById(id);
  $('store').textContent = config.storeName + ' · ' + config.deviceId;
  const status = (text, state) => { $('status').textContent = text; $('status').dataset.state = state; };
  if (!password) { status('Mot de passe manquant : ajoutez #password=… à l’adresse', 'error'); return; }

  let soundOn = false;
  $('sound').addEventListener('click', () => {
    soundOn = true;
    $('sound').hidden = true;
    // Browsers speak only after a gesture on the page: this one counts for the rest of the visit.
    speechSynthesis.speak(new SpeechSynthesisUtterance(''));
  });
  const speak = (text) => {
    if (!soundOn || !('speechSynthesis' in window)) return;
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = 'fr-FR';
    speechSynthesis.speak(utterance);
  };
  // No-break spaces throughout, so an amount never wraps as "1 / 500".
  const amount = (cents, currency) =>
    new Intl.NumberFormat('fr-FR', { maximumFractionDigits: cents % 100 ? 2 : 0, minimumFractionDigits: cents % 100 ? 2 : 0 })
      .format(cents / 100) + (currency === 'XOF' ? '\u00a0F\u00a0CFA' : '\u00a0' + currency);
  const clock = (iso) =>
    new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

  let expiry;
  const clearDisplay = () => { $('display').hidden = true; $('idle').hidden = false; clearTimeout(expiry); };
  const show = (message) => {
    $('qr').src = 'qr.svg?text=' + encodeURIComponent(message.qr);
    $('qr').dataset.qr = message.qr;
    $('display').dataset.paymentRequestId = message.paymentRequestId;
    $('amount').textContent = amount(message.amount, message.currency);
    $('reference').textContent = message.reference;
    // Which app reads this QR: the provider it was made for (any phone's camera opens it too).
    const provider = config.providerNames[message.paymentMethod] || message.paymentMethod;
    $('apps').textContent = provider
      ? 'Scannez avec l’application ' + provider + ' ou l’appareil photo du téléphone'
      : 'Scannez avec l’appareil photo du téléphone';
    $('expires').textContent = 'Valable jusqu’à ' + clock(message.expiresAt);
    $('display').hidden = false;
    $('idle').hidden = true;
    $('announcement').hidden = true;
    clearTimeout(expiry);
    expiry = setTimeout(clearDisplay, Math.max(0, Date.parse(message.expiresAt) - Date.now()));
  };
  const announce = (message) => {
    // Shown as a title and the amount kept on one line; spoken as the service wrote it.
    const title = document.createElement('span');
    title.textContent = (message.type === 'payment_received' ? 'Paiement reçu' : 'Paiement refusé') + '\u00a0: ';
    const sum = document.createElement('span');
    sum.className = 'nowrap';
    sum.textContent = amount(message.amount, message.currency);
    $('announcement').replaceChildren(title, sum);
    $('announcement').dataset.type = message.type;
    $('announcement').hidden = false;
    speak(message.text.fr);
  };

  const topics = config.topics;
  const client = mqtt.connect(config.webSocketUrl, {
    clientId: config.deviceId, username: config.deviceId, password, protocolVersion: 4,
    clean: false, reconnectPeriod: 2000,
  });
  const heartbeat = () => client.connected &&
    client.publish(topics.status, JSON.stringify({ type: 'heartbeat', at: new Date().toISOString() }), { qos: 1 });
  setInterval(heartbeat, 30000);
  client.on('connect', () => {
    status('En ligne', 'online');
    client.subscribe([topics.display, topics.announce], { qos: 1 });
    heartbeat();
  });
  client.on('offline', () => status('Hors ligne, reconnexion…', 'offline'));
  client.on('error', (error) => status('Erreur : ' + error.message, 'error'));
  client.on('message', (topic, payload) => {
    if (topic === topics.display) {
      if (payload.length === 0) return clearDisplay();
      show(JSON.parse(payload.toString()));
    } else if (topic === topics.announce) {
      announce(JSON.parse(payload.toString()));
    }
  });
})();
`;
