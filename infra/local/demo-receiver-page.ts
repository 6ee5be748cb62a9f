import type { Language } from '#shared/domain/languages.ts';
import { html, type SafeHtml, trustedHtml } from '#shared/pages/html.ts';

/** A delivery as the demo receiver got it, signature checked or not. */
export interface ReceivedDelivery {
  receivedAt: string;
  event: string | null;
  signature: string | null;
  webhookVersion: string | null;
  verified: boolean;
  /** The one line the receiver prints for it. */
  summary: string;
  /** The body's text, exactly as received (cut after 16 KB). */
  body: string;
}

const parsed = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
};

/** The deliveries for a script or curl: newest first, each body parsed when it is JSON. */
export function receivedAsJson(deliveries: readonly ReceivedDelivery[]) {
  return {
    deliveries: deliveries.map((delivery) => ({ ...delivery, body: parsed(delivery.body) })),
  };
}

const refreshSeconds = 5;

const text = {
  fr: {
    title: 'Récepteur de webhooks de démonstration',
    intro:
      "Il tient la place du serveur d'un marchand : l'abonnement webhook de l'entreprise de démonstration pointe ici. Chaque livraison est un POST signé (Svc-Signature : HMAC-SHA256 du corps avec le secret de l'abonnement) ; le récepteur vérifie la signature, répond 200 si elle correspond et 401 sinon. Du plus récent au plus ancien, depuis le démarrage de l'hôte ; la page se recharge toutes les 5 secondes.",
    empty:
      "Aucune livraison pour le moment. Créez une demande de paiement et approuvez-la dans le bac à sable (les trois étapes du README ou de la page d'accueil) : son webhook s'affiche ici.",
    verified: 'Signature vérifiée',
    refused: 'Refusée : signature absente ou fausse',
    log: 'Le journal des livraisons côté service : GET /partner_api/webhook_deliveries avec la clé de démonstration.',
    start: "Page d'accueil",
    other: 'English',
  },
  en: {
    title: 'Demo webhook receiver',
    intro:
      "It stands in for a merchant's server: the demo business's webhook subscription points here. Each delivery is a signed POST (Svc-Signature: HMAC-SHA256 of the body with the subscription's secret); the receiver checks the signature, answers 200 when it matches and 401 when it does not. Newest first, since the host started; the page reloads every 5 seconds.",
    empty:
      'No delivery yet. Create a payment request and approve it in the sandbox (the three steps of the README or of the start page): its webhook shows here.',
    verified: 'Signature verified',
    refused: 'Refused: bad or missing signature',
    log: "The service's own log of these deliveries: GET /partner_api/webhook_deliveries with the demo key.",
    start: 'Start page',
    other: 'Français',
  },
} as const;

const styles = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;background:#eef1f5;color:#1f2937;line-height:1.45}
main{max-width:860px;margin:0 auto;padding:16px 12px}h1{font-size:22px;margin:8px 0}p.intro{color:#4b5563;margin:0 0 16px}
nav{display:flex;justify-content:space-between}a{color:#0f766e}
article{background:#fff;border-radius:12px;padding:12px 14px;margin:0 0 12px;border-left:6px solid #15803d}
article.refused{border-left-color:#b91c1c}h2{font-size:16px;margin:0 0 4px;overflow-wrap:anywhere}
.badge{display:inline-block;font-size:13px;font-weight:600;padding:2px 8px;border-radius:999px;background:#dcfce7;color:#14532d}
.refused .badge{background:#fee2e2;color:#7f1d1d}time{color:#6b7280;font-size:13px;margin-left:8px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;font-size:13px;margin:8px 0}dt{color:#6b7280}dd{margin:0;font-family:ui-monospace,monospace;overflow-wrap:anywhere}
pre{background:#f3f4f6;border-radius:8px;padding:8px;overflow:auto;font-size:13px;margin:0}.empty{background:#fff;border-radius:12px;padding:16px}`;

const pretty = (body: string): string => {
  const value = parsed(body);
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
};

function entry(delivery: ReceivedDelivery, language: Language): SafeHtml {
  const t = text[language];
  return html`<article class="${delivery.verified ? 'verified' : 'refused'}">
<h2>${delivery.summary}</h2>
<span class="badge">${delivery.verified ? t.verified : t.refused}</span><time datetime="${delivery.receivedAt}">${delivery.receivedAt}</time>
<dl><dt>Svc-Event</dt><dd>${delivery.event ?? '—'}</dd><dt>Svc-Signature</dt><dd>${delivery.signature ?? '—'}</dd><dt>Svc-Webhook-Version</dt><dd>${delivery.webhookVersion ?? '—'}</dd></dl>
<pre>${pretty(delivery.body)}</pre>
</article>`;
}

/** The receiver's page: every delivery it got since the host started, newest first. */
export function renderReceiverPage(deliveries: readonly ReceivedDelivery[], language: Language): string {
  const t = text[language];
  const other: Language = language === 'fr' ? 'en' : 'fr';
  return html`<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="refresh" content="${refreshSeconds}"><title>${t.title}</title><style>${trustedHtml(styles)}</style></head>
<body><main><nav><a href="/?lang=${language}">${t.start}</a><a href="?lang=${other}" lang="${other}">${t.other}</a></nav>
<h1>${t.title}</h1><p class="intro">${t.intro}</p>
${deliveries.length ? deliveries.map((delivery) => entry(delivery, language)) : html`<p class="empty">${t.empty}</p>`}
<p>${t.log}</p>
</main></body></html>`.toString();
}
