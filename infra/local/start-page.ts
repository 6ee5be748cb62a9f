import type { IncomingMessage, ServerResponse } from 'node:http';
import { endpointEntries } from '#shared/api/all-endpoints.ts';
import type { Language } from '#shared/domain/languages.ts';
import { html, trustedHtml } from '#shared/pages/html.ts';
import { negotiateLanguage } from '#shared/pages/language.ts';
import { firstPaymentSteps } from './first-payment.ts';
import type { DemoCredentials } from './local-config.ts';

/**
 * The local host's start page, `/`: a link to every local tool (the API reference, the OpenAPI
 * document, the webhook receiver, the SMS inbox, the soundbox simulator, the broker's switch), the
 * three steps from a payment to its webhook with the demo's values, and the sandbox's test numbers.
 * Local only, not an endpoint, like the other local tools: a stage's API answers `/` as
 * any unknown path, and the page steps aside should an endpoint ever be declared at `/`.
 */
export const startPagePath = '/';

const rootIsRouted = endpointEntries.some(([, route]) => route.path === startPagePath);

/** Whether the start page answers this request: a GET or HEAD of `/` that no route takes. */
export const servesStartPage = (method: string | undefined, path: string): boolean =>
  path === startPagePath && (method === 'GET' || method === 'HEAD') && !rootIsRouted;

export interface StartPageContext {
  baseUrl: string;
  demo: DemoCredentials;
  dataDir: string;
  paths: { receiver: string; smsInbox: string; soundbox: string; broker: string };
}

type Tool = { href: string; label: string; what: string };

const text = {
  fr: {
    title: 'Partner Payments Service — hôte local',
    intro:
      "Le service tourne sur cette machine, sans compte AWS : l'API répond sous /partner_api avec la clé de démonstration ci-dessous, et le bac à sable joue les opérateurs de mobile money.",
    tools: 'Outils locaux',
    steps: "D'un paiement à son webhook, en trois commandes",
    stepsIntro: 'Dans un autre terminal (bash ou zsh), avec les valeurs de démonstration déjà en place :',
    demo: 'Valeurs de démonstration',
    demoIntro: (dataDir: string) =>
      `Les mêmes valeurs sont dans ${dataDir}/local.json et, pour un shell, ${dataDir}/demo.env.`,
    numbers: 'Numéros de test du bac à sable (paiements)',
    numbersIntro:
      'Le numéro du payeur choisit le résultat. Virements et SMS ont les leurs : voir les guides.',
    guides: 'Guides',
    guidesText:
      'Dans le dépôt du service : README.md pour commencer, puis docs/README.md (paiements, webhooks, erreurs et limites, exploitation, architecture).',
    other: 'English',
    labels: {
      dashboard: [
        'Tableau de bord',
        'les entreprises et leurs réglages ; connexion avec le téléphone du propriétaire de démonstration',
      ],
      reference: [
        "Référence de l'API",
        'chaque opération, ses réponses et ses erreurs ; « Authorize » pour essayer',
      ],
      openapi: ['Document OpenAPI', 'la même référence, en OpenAPI 3.1'],
      receiver: ['Récepteur de webhooks', 'chaque livraison reçue, sa signature vérifiée'],
      sms: ['Boîte de réception SMS', 'les SMS du bac à sable, par numéro'],
      soundbox: ['Simulateur de soundbox', 'le QR et les annonces du terminal de démonstration'],
      broker: ['Courtier MQTT', 'son état ; un POST {"available": false} simule une panne'],
      demo: ['Valeurs de démonstration', 'la clé, les ids de l’entreprise, du magasin et du terminal'],
    },
  },
  en: {
    title: 'Partner Payments Service — local host',
    intro:
      'The service runs on this machine with no AWS account: the API answers under /partner_api with the demo key below, and the sandbox plays the mobile-money providers.',
    tools: 'Local tools',
    steps: 'From a payment to its webhook, in three commands',
    stepsIntro: 'In another terminal (bash or zsh), with the demo values already in them:',
    demo: 'Demo values',
    demoIntro: (dataDir: string) =>
      `The same values are in ${dataDir}/local.json and, for a shell, ${dataDir}/demo.env.`,
    numbers: 'Sandbox test numbers (payments)',
    numbersIntro: "The payer's number chooses the outcome. Transfers and SMS have their own: see the guides.",
    guides: 'Guides',
    guidesText:
      "In the service's repository: README.md to start, then docs/README.md (payments, webhooks, errors and limits, operations, architecture).",
    other: 'Français',
    labels: {
      dashboard: ['Dashboard', "businesses and their settings; sign in with the demo owner's phone"],
      reference: ['API reference', 'every operation, its answers and errors; "Authorize" to try calls'],
      openapi: ['OpenAPI document', 'the same reference, as OpenAPI 3.1'],
      receiver: ['Webhook receiver', 'every delivery received, its signature checked'],
      sms: ['SMS inbox', "the sandbox's texts, by number"],
      soundbox: ['Soundbox simulator', "the demo terminal's QR and announcements"],
      broker: ['MQTT broker', 'its state; a POST of {"available": false} plays an outage'],
      demo: ['Demo values', "the key, the business's, store's and device's ids"],
    },
  },
} as const;

const numbers: Record<Language, [string, string][]> = {
  en: [
    ['+2250700000001', 'success'],
    ['+2250700000002', 'declined by the payer'],
    ['+2250700000003', 'insufficient funds'],
    ['+2250700000004', 'no callback ever: the request stays pending'],
    ['+2250700000005', 'refused at once (400 third_party_payment_provider_error)'],
    ['+2250700000006', 'success, with the callback delivered twice'],
    ['any other', 'success'],
  ],
  fr: [
    ['+2250700000001', 'succès'],
    ['+2250700000002', 'refusé par le payeur'],
    ['+2250700000003', 'fonds insuffisants'],
    ['+2250700000004', 'aucun rappel : la demande reste pending'],
    ['+2250700000005', "refusé d'emblée (400 third_party_payment_provider_error)"],
    ['+2250700000006', 'succès, rappel livré deux fois'],
    ['tout autre', 'succès'],
  ],
};

const styles = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;background:#eef1f5;color:#1f2937;line-height:1.45}
main{max-width:900px;margin:0 auto;padding:16px 12px}h1{font-size:24px;margin:8px 0}h2{font-size:18px;margin:24px 0 8px}p{margin:0 0 8px}
nav{text-align:right}a{color:#0f766e}ul.tools{list-style:none;padding:0;margin:0;display:grid;gap:8px;grid-template-columns:repeat(auto-fill,minmax(260px,1fr))}
ul.tools li{background:#fff;border-radius:12px;padding:10px 12px}ul.tools a{font-weight:600}ul.tools span{display:block;color:#4b5563;font-size:14px}
ol.steps{padding-left:20px}ol.steps li{margin:0 0 12px}pre{background:#111827;color:#f9fafb;border-radius:8px;padding:10px;overflow:auto;font-size:13px;margin:6px 0 0}
table{border-collapse:collapse;background:#fff;border-radius:12px;font-size:14px}td,th{padding:6px 10px;text-align:left;border-bottom:1px solid #e5e7eb}
td code,th code{overflow-wrap:anywhere}`;

export function renderStartPage(context: StartPageContext, language: Language): string {
  const t = text[language];
  const { baseUrl, demo, paths } = context;
  const tool = (key: keyof typeof t.labels, href: string): Tool => ({
    href,
    label: t.labels[key][0],
    what: t.labels[key][1],
  });
  const tools = [
    tool('dashboard', `/dashboard?lang=${language}`),
    tool('reference', '/docs'),
    tool('openapi', '/openapi.json'),
    tool('receiver', paths.receiver),
    tool('sms', `${paths.smsInbox}?lang=${language}`),
    tool('soundbox', paths.soundbox),
    tool('broker', paths.broker),
    tool('demo', '#demo-values'),
  ];
  const values: [string, string][] = [
    ['Base URL', baseUrl],
    ['Key id (X-API-KEY-ID)', demo.apiKeyId],
    ['Key (X-API-KEY)', demo.apiKey],
    ['Business id', demo.businessId],
    ['Store id', demo.storeId],
    ['Device id', demo.deviceId],
    ...(demo.ownerPhone ? [['Owner phone (/dashboard)', demo.ownerPhone] as [string, string]] : []),
  ];
  const other: Language = language === 'fr' ? 'en' : 'fr';
  return html`<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${t.title}</title><style>${trustedHtml(styles)}</style></head>
<body><main><nav><a href="?lang=${other}" lang="${other}">${t.other}</a></nav>
<h1>${t.title}</h1><p>${t.intro}</p>
<h2>${t.tools}</h2>
<ul class="tools">${tools.map((entry) => html`<li><a href="${entry.href}">${entry.label}</a><span>${entry.what}</span></li>`)}</ul>
<h2>${t.steps}</h2><p>${t.stepsIntro}</p>
<ol class="steps">${firstPaymentSteps(baseUrl, demo, paths.receiver).map(
    (step) => html`<li>${step.title[language]}<pre><code>${step.command}</code></pre></li>`,
  )}</ol>
<h2 id="demo-values">${t.demo}</h2><p>${t.demoIntro(context.dataDir)}</p>
<table>${values.map(([name, value]) => html`<tr><th>${name}</th><td><code>${value}</code></td></tr>`)}</table>
<h2>${t.numbers}</h2><p>${t.numbersIntro}</p>
<table>${numbers[language].map(([phone, outcome]) => html`<tr><td><code>${phone}</code></td><td>${outcome}</td></tr>`)}</table>
<h2>${t.guides}</h2><p>${t.guidesText}</p>
</main></body></html>`.toString();
}

export function startPage(context: () => StartPageContext) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const language = negotiateLanguage(
      request.headers['accept-language'],
      url.searchParams.get('lang') ?? undefined,
    );
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
    response.end(renderStartPage(context(), language));
  };
}
