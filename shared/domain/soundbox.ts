/**
 * What a soundbox terminal is told, and when it counts as online. Pure: the topics, the messages'
 * exact shapes and the words spoken, shared by the service, the local broker and the simulator.
 */

/**
 * A device's MQTT topics, under its stage's prefix: IoT Core's topics are account-wide, and two
 * stages of one account must neither reach each other's devices nor fire each other's rules. Its
 * id is its IoT thing name, and the IoT policy is written on these. The one place a topic is built:
 * the functions, the device policy, the IoT rules, the local broker and the simulators all agree.
 */
export function soundboxTopics(stage: string, deviceId: string) {
  const prefix = soundboxTopicPrefix(stage);
  return {
    /** The QR to show: QoS 1 and retained, so a device that reconnects shows the current one. */
    display: `${prefix}${deviceId}/display`,
    /** A payment's outcome, to be spoken: QoS 1, not retained (said once, when it happens). */
    announce: `${prefix}${deviceId}/announce`,
    /** The device's own heartbeats: the only topic it may publish to. */
    status: `${prefix}${deviceId}/status`,
  };
}

export type SoundboxTopic = keyof ReturnType<typeof soundboxTopics>;

/** Every device topic of a stage starts so; its functions may publish under it and nowhere else. */
export const soundboxTopicPrefix = (stage: string) => `${stage}/soundbox/`;

/** The topic level (1-based, as IoT SQL's `topic(n)` counts) that holds the device id. */
export const soundboxDeviceIdLevel = 3;

/** `<stage>/soundbox/<deviceId>/<topic>` → its parts, or undefined for any other topic or stage. */
export function parseSoundboxTopic(
  stage: string,
  topic: string,
): { deviceId: string; topic: SoundboxTopic } | undefined {
  const prefix = soundboxTopicPrefix(stage);
  if (!topic.startsWith(prefix)) return undefined;
  const match = /^([^/+#]+)\/(display|announce|status)$/.exec(topic.slice(prefix.length));
  if (!match?.[1] || !match[2]) return undefined;
  return { deviceId: match[1], topic: match[2] as SoundboxTopic };
}

/**
 * How long a QR stays on the counter at most: a cashier's terminal should not show a customer's QR
 * for the whole of a long-lived request. Past this, or past the request's own `expiresAt` if
 * sooner, the device shows nothing, and the cashier makes a new request.
 */
export const displayLifetimeMs = 15 * 60_000;

/** `<stage>/soundbox/<id>/display`: the QR of a pending soundbox payment request. */
export interface DisplayMessage {
  type: 'payment_request';
  paymentRequestId: string;
  /** Cents. */
  amount: number;
  currency: string;
  reference: string;
  /** The provider the QR is for: its app (or any phone's camera) scans it, and the device says so. */
  paymentMethod: string;
  /** The string to encode: the provider's checkout URL the payer's app opens. */
  qr: string;
  expiresAt: string;
}

export interface AnnouncementMessage {
  type: 'payment_received' | 'payment_failed';
  paymentRequestId: string;
  /** Cents. */
  amount: number;
  currency: string;
  paymentMethod: string;
  /** What the device says, in French and English. */
  text: { fr: string; en: string };
}

export function displayMessage(request: {
  id: string;
  amountCents: number;
  currency: string;
  reference: string;
  paymentMethod: string;
  qr: string;
  createdAt: string;
  expiresAt: string;
}): DisplayMessage {
  return {
    type: 'payment_request',
    paymentRequestId: request.id,
    amount: request.amountCents,
    currency: request.currency,
    reference: request.reference,
    paymentMethod: request.paymentMethod,
    qr: request.qr,
    expiresAt: new Date(
      Math.min(Date.parse(request.createdAt) + displayLifetimeMs, Date.parse(request.expiresAt)),
    ).toISOString(),
  };
}

export function announcementMessage(payment: {
  id: string;
  status: 'success' | 'error';
  amountCents: number;
  currency: string;
  paymentMethod: string;
}): AnnouncementMessage {
  const received = payment.status === 'success';
  const fr = spokenAmount(payment.amountCents, payment.currency, 'fr');
  const en = spokenAmount(payment.amountCents, payment.currency, 'en');
  return {
    type: received ? 'payment_received' : 'payment_failed',
    paymentRequestId: payment.id,
    amount: payment.amountCents,
    currency: payment.currency,
    paymentMethod: payment.paymentMethod,
    text: received
      ? { fr: `Paiement reçu : ${fr}`, en: `Payment received: ${en}` }
      : { fr: `Paiement refusé : ${fr}`, en: `Payment failed: ${en}` },
  };
}

const currencyWords: Record<string, { fr: [string, string]; en: [string, string] }> = {
  XOF: { fr: ['franc CFA', 'francs CFA'], en: ['CFA franc', 'CFA francs'] },
};

/**
 * An amount as a speech synthesizer should read it: 150000 cents → "1 500 francs CFA" (plain
 * spaces, which every synthesizer reads as a pause-free group; Intl's narrow no-break space is
 * spelt out by some). A fraction of a franc, which no payer uses, is kept rather than rounded.
 */
export function spokenAmount(amountCents: number, currency: string, language: 'fr' | 'en'): string {
  const units = amountCents / 100;
  const digits = Number.isInteger(units) ? 0 : 2;
  const number = new Intl.NumberFormat(language === 'fr' ? 'fr-FR' : 'en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  })
    .format(units)
    .replace(/[\u202f\u00a0]/g, ' ');
  // French puts the singular below 2 (1,50 franc), English only on exactly 1.
  const singular = language === 'fr' ? units < 2 : units === 1;
  const words = currencyWords[currency]?.[language][singular ? 0 : 1] ?? currency;
  return `${number} ${words}`;
}

/** A device is online while connected, or while its last heartbeat is younger than this. */
export const heartbeatFreshMs = 90_000;

/** How often a device (the simulator included) sends its heartbeat: three chances per window. */
export const heartbeatIntervalMs = 30_000;

export interface DevicePresence {
  connected?: boolean | undefined;
  lastSeenAt?: string | undefined;
}

export function isOnline(presence: DevicePresence, now: Date): boolean {
  if (presence.connected) return true;
  if (!presence.lastSeenAt) return false;
  return now.getTime() - Date.parse(presence.lastSeenAt) < heartbeatFreshMs;
}
