import { createHash } from 'node:crypto';
import type { PaymentLink } from '#shared/data/payment-link.ts';
import type { Language } from '#shared/domain/languages.ts';
import { dashboardContentSecurityPolicy } from '#shared/pages/dashboard-chrome.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { html, type SafeHtml, trustedHtml } from '#shared/pages/html.ts';

/**
 * The printable "scan to pay" card of a payment link: an A6 page (105 × 148 mm, a quarter of A4)
 * with the store's name, what is paid, the amount and the QR code, to stand on a counter. It is a
 * page of its own rather than the dashboard's layout: its stylesheet lays it out for paper
 * (`@page size: A6`), and hides on paper the line that says how to print it. No script: the
 * browser's own Print prints it.
 */
const cardStyle = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#111;background:#eef1f5}
main{width:105mm;max-width:100%;min-height:148mm;margin:16px auto;padding:8mm;background:#fff;text-align:center;display:flex;flex-direction:column;align-items:center;justify-content:space-between}
h1{margin:0;font-size:20pt;line-height:1.2}
.store{margin:0;font-size:13pt;font-weight:700;overflow-wrap:anywhere}
.purpose{margin:0;font-size:11pt;overflow-wrap:anywhere}
.amount{margin:0;font-size:22pt;font-weight:800;white-space:nowrap}
.qr svg{width:62mm;height:62mm}
.how{max-width:105mm;margin:8px auto;font-size:14px;text-align:center}
.how a{color:#0f766e}
@page{size:A6;margin:0}
@media print{body{background:#fff}.how{display:none}main{margin:0;width:105mm;max-width:none;height:148mm}}
`.trim();

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/** The dashboard's policy with this page's stylesheet allowed by its hash instead of the layout's. */
export const cardContentSecurityPolicy = dashboardContentSecurityPolicy.replace(
  /style-src [^;]+/,
  `style-src 'sha256-${sha256(cardStyle)}'`,
);

const text = {
  fr: {
    title: (title: string) => `Carte à imprimer – ${title}`,
    scan: 'Scannez pour payer',
    how: 'Imprimez cette page avec l’impression du navigateur, sur du papier A6 (ou A4, une carte par page).',
    back: 'Retour au lien',
  },
  en: {
    title: (title: string) => `Printable card – ${title}`,
    scan: 'Scan to pay',
    how: 'Print this page with the browser’s Print, on A6 paper (or A4, one card a page).',
    back: 'Back to the link',
  },
} satisfies Record<Language, unknown>;

export function linkCardPage(context: DashboardPageContext, link: PaymentLink, qr: SafeHtml): string {
  // The card speaks to payers: French first, whatever the merchant reads the dashboard in.
  const t = text[context.language];
  return html`<!doctype html>
<html lang="${context.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${t.title(link.title)}</title>
<style>${trustedHtml(cardStyle)}</style>
</head>
<body>
<p class="how">${t.how} <a href="${dashboardUrl(context, `/payment-links/${link.id}`)}">${t.back}</a></p>
<main>
<p class="store">${link.storeName}</p>
<h1 lang="fr">Scannez pour payer${context.language === 'fr' ? '' : html`<br><span lang="en">${t.scan}</span>`}</h1>
<div class="qr">${qr}</div>
<p class="purpose">${link.title}</p>
<p class="amount">${formatAmount(link.amountCents, link.currency)}</p>
</main>
</body>
</html>
`.value;
}
