import { createHash } from 'node:crypto';
import { type Language, languages } from '#shared/domain/languages.ts';
import { html, type SafeHtml, trustedHtml } from '#shared/pages/html.ts';
import { messages } from '#shared/pages/messages.ts';

/**
 * One stylesheet for every hosted page, mobile first: the payer is usually on a phone of 360 px
 * or so, on a slow network, so the page carries its own styles (no extra request, no font files)
 * and touch targets are at least 48 px high. Text inputs use 18 px so phones do not zoom on focus.
 */
export const stylesheet = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:16px;line-height:1.5;color:#1f2937;background:#eef1f5}
a{color:#0f766e}
.page{min-height:100vh;display:flex;flex-direction:column;align-items:center;padding:6px 8px}
.card{width:100%;max-width:440px;background:#fff;border-radius:16px;box-shadow:0 1px 3px rgba(15,23,42,.08),0 8px 24px rgba(15,23,42,.06);overflow:hidden}
.summary{padding:8px 12px;text-align:center;border-bottom:1px solid #e5e7eb}
.eyebrow{margin:0;font-size:14px;line-height:1.25;color:#4b5563}
.store{margin:0;font-size:18px;font-weight:700;line-height:1.25;overflow-wrap:anywhere}
.purpose{margin:0;font-size:15px;line-height:1.3;color:#374151;overflow-wrap:anywhere}
.amount{margin:0;font-size:clamp(24px,8.5vw,30px);font-weight:700;line-height:1.2;white-space:nowrap}
.reference{margin:0;font-size:14px;line-height:1.3;color:#4b5563;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.content{padding:10px 12px 14px}
.content>h2{margin:4px 0 4px;font-size:18px;line-height:1.3}
.panel{padding:12px 16px 16px}
.panel h1{margin:4px 0 8px;font-size:22px;line-height:1.3}
.panel p{margin:0 0 10px}
.panel .field-error,.panel .hint{margin:0 0 4px}
.panel legend.field{margin:10px 0 2px}
.country{display:flex;align-items:center;gap:8px;padding:4px 12px 0}
.country-label{flex:0 1 auto;max-width:7em;font-size:14px;font-weight:600;line-height:1.25}
.country .input{flex:1 1 auto;width:auto;min-width:0;min-height:44px;padding:6px;font-size:16px}
.country .button{width:auto;flex:none;min-height:44px;margin:0;padding:6px 12px;font-size:16px}
.country+.content{padding-top:4px}
fieldset{border:0;margin:0;padding:0;min-width:0}
legend{font-weight:600;margin:0 0 4px;padding:0}
.providers{display:grid;gap:8px}
.more-providers summary{display:flex;align-items:center;min-height:44px;color:#0f766e;font-weight:600;cursor:pointer}
.more-providers summary:focus-visible{outline:3px solid #0f766e;outline-offset:2px}
.more-providers[open] summary{margin-bottom:4px}
.provider{display:flex;align-items:center;gap:12px;min-height:52px;padding:4px 12px;border:2px solid #9ca3af;border-radius:12px;background:#fff;cursor:pointer}
.provider:has(input:checked){border-color:#0f766e;background:#f0fdfa}
.provider:focus-within{outline:3px solid #0f766e;outline-offset:2px}
.provider input{order:3;margin:0 0 0 auto;width:22px;height:22px;flex:none;accent-color:#0f766e}
.chip{display:inline-block;padding:4px 12px;border-radius:999px;font-size:17px;font-weight:700;line-height:1.5;white-space:nowrap}
.brand-orange{background:#ff7900;color:#111}
.brand-wave{background:#1dc8f2;color:#0b1f33}
.brand-mtn{background:#ffcb05;color:#111}
.brand-moov{background:#005ca9;color:#fff}
.brand-djamo{background:#23184d;color:#fff}
.field{display:block;font-size:15px;font-weight:600;margin:8px 0 4px;line-height:1.35}
.hint{margin:4px 0 0;font-size:14px;color:#4b5563}
.phone{display:flex}
.phone-prefix{flex:none;display:flex;align-items:center;padding:0 12px;border:2px solid #6b7280;border-right:0;border-radius:12px 0 0 12px;background:#f3f4f6;font-size:18px;font-weight:600}
.phone .input{min-width:0;border-radius:0 12px 12px 0}
.phone .phone-country{flex:0 1 auto;width:auto;max-width:55%;padding:6px 8px;border-right:0;border-radius:12px 0 0 12px;background:#f3f4f6;font-size:16px;font-weight:600}
.input::placeholder{color:#6b7280;font-style:italic;font-size:16px}
.input{display:block;width:100%;min-height:50px;padding:10px 14px;font:inherit;font-size:18px;color:inherit;border:2px solid #6b7280;border-radius:12px;background:#fff}
.input:focus{outline:3px solid #0f766e;outline-offset:0;border-color:#0b0c0c}
.input[aria-invalid=true]{border-color:#b91c1c}
.alert{margin:0 0 8px;padding:6px 10px;font-size:15px;line-height:1.4;border:1px solid #fecaca;border-radius:12px;background:#fef2f2;color:#991b1b}
.notice{margin:0 0 10px;padding:8px 12px;border:1px solid #fde68a;border-radius:12px;background:#fffbeb;color:#92400e}
.alert p,.notice p{margin:0}
.notice .button{margin-top:8px}
.error-summary{margin:0 0 8px;padding:6px 10px;font-size:15px;border:3px solid #b91c1c;border-radius:12px;background:#fff}
.error-summary:focus{outline:3px solid #0f766e;outline-offset:2px}
.error-summary h2{margin:0;font-size:15px;line-height:1.35}
.error-summary ul{margin:0;padding-left:18px;line-height:1.35}
.error-summary a{color:#991b1b;font-weight:600}
.alert ul{margin:4px 0 0;padding-left:20px}
.alert a{color:#991b1b;font-weight:600}
.field-error{margin:4px 0 0;font-size:14px;line-height:1.35;font-weight:600;color:#b91c1c}
.button{display:block;width:100%;min-height:52px;margin:12px 0 0;padding:12px 16px;border:0;border-radius:12px;font:inherit;font-size:18px;font-weight:700;line-height:1.5;text-align:center;text-decoration:none;cursor:pointer;background:#0f766e;color:#fff}
.button:hover{background:#115e59}
.button:focus-visible{outline:3px solid #0b0c0c;outline-offset:2px}
.button-approve{background:#15803d}
.button-approve:hover{background:#166534}
.button-decline{background:#fff;color:#b91c1c;border:2px solid #b91c1c}
.button-decline:hover{background:#fef2f2}
.button-secondary{background:#fff;color:#0f766e;border:2px solid #0f766e}
.button-secondary:hover{background:#f0fdfa}
.leave{padding:0 16px 16px;text-align:center}
.leave .button{margin-top:6px}
.leave p{margin:0}
.note{margin:6px 0 0;font-size:14px;line-height:1.4;color:#4b5563;text-align:center}
.panel .privacy{margin:12px 0;padding:8px 12px;border-left:4px solid #0f766e;background:#f0fdfa;font-size:14px}
.date-input{display:flex;gap:12px}
.date-input .date-part{flex:none}
.date-input label{display:block;margin:0 0 4px;font-size:15px}
.date-input .input{width:4.5em;text-align:center}
.date-input .date-year .input{width:6em}
.who{margin:0 0 10px;padding:10px 12px;border-radius:12px;background:#f3f4f6;font-size:15px}
.who p{margin:0}
.who ul{margin:4px 0 0;padding-left:20px}
.status{padding:24px 16px;text-align:center}
.waiting-step{font-weight:600}
.receipt{margin:16px 0 8px;text-align:left;font-size:15px}
.receipt-reference{font-family:ui-monospace,Menlo,Consolas,monospace;letter-spacing:.05em}
.facts.receipt{grid-template-columns:1fr;gap:0}
.receipt dt{margin-top:8px;font-size:14px;line-height:1.3}
.receipt dd{text-align:left;white-space:nowrap}
.receipt dd.receipt-order{white-space:normal;overflow-wrap:anywhere}
.notice h2{margin:0 0 4px;font-size:17px;line-height:1.35}
.notice p+p{margin-top:4px}
.facts dt.receipt-id{grid-column:1/-1;margin-top:4px}
.facts dd.receipt-id{grid-column:1/-1;text-align:left;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace;overflow-x:auto}
.status h1{margin:0 0 8px;font-size:22px}
.status p{margin:0 0 8px}
.status-icon{width:64px;height:64px;margin:0 auto 16px;border-radius:50%;display:grid;place-items:center;font-size:32px;font-weight:700;line-height:1}
.status-success .status-icon{background:#dcfce7;color:#15803d}
.status-error .status-icon{background:#fee2e2;color:#b91c1c}
.status-info .status-icon{background:#e0e7ff;color:#3730a3}
.spinner{width:56px;height:56px;margin:0 auto 16px;border:6px solid #ccfbf1;border-top-color:#0f766e;border-radius:50%;animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation-duration:4s}}
.muted{color:#4b5563;font-size:14px}
nav.muted{line-height:1.35}
.footer{width:100%;max-width:440px;display:flex;justify-content:space-between;align-items:center;gap:12px;padding:8px 4px;font-size:14px;color:#4b5563}
.footer a{display:inline-block;min-height:48px;padding:12px 8px;line-height:24px;font-weight:600}
.sandbox-banner{width:100%;max-width:440px;margin:0 0 6px;padding:0 12px;border-radius:8px;background:#fde047;border:2px dashed #854d0e;color:#422006;font-size:12px;font-weight:800;line-height:1.5;text-align:center;letter-spacing:.03em;text-transform:uppercase}
.provider-header{display:flex;align-items:center;gap:12px;padding:16px 20px;font-size:18px;font-weight:700}
.facts{margin:0;display:grid;grid-template-columns:auto 1fr;gap:6px 16px}
.facts dt{color:#4b5563}
.facts dd{margin:0;font-weight:600;text-align:right;overflow-wrap:anywhere}
.tests{width:100%;margin:8px 0 0;border-collapse:collapse;font-size:14px}
.tests th,.tests td{padding:6px 0;border-top:1px solid #e5e7eb;text-align:left;vertical-align:top}
.tests td:first-child{padding-right:12px;white-space:nowrap;font-variant-numeric:tabular-nums}
.tests-title{margin:20px 0 0;font-size:16px}
.actions{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin-top:20px}
.actions .button{margin:0}
.nowrap{white-space:nowrap}
@media (min-width:600px){.page{padding:48px 16px}.amount{font-size:40px}}
`.trim();

/**
 * The pages' one script, on a page that waits for a provider's answer (`data-poll` on its status):
 * it asks for the page again every two seconds in the background and goes to it only once it no
 * longer waits (the outcome, or the redirect to the merchant), stopping after `data-attempts`. A
 * page that reloaded itself every two seconds (meta refresh) sent a screen reader back to its top
 * each time, which WCAG 2.2.1 forbids. Without scripts, the page's "check again" button does it.
 */
const waitingScript = `
(function () {
  var status = document.querySelector('[data-poll]');
  if (!status) return;
  var attempt = Number(status.getAttribute('data-attempt'));
  var attempts = Number(status.getAttribute('data-attempts'));
  var next = function () {
    var url = new URL(status.getAttribute('data-poll'), location.href);
    url.searchParams.set('attempt', String(attempt));
    return url.href;
  };
  var look = function () {
    attempt += 1;
    var url = next();
    fetch(url, { redirect: 'manual', credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (answer) {
        if (answer.type === 'opaqueredirect') return '';
        return answer.text();
      })
      .then(function (page) {
        if (page.indexOf('data-poll=') < 0 || attempt >= attempts) location.replace(url);
        else setTimeout(look, 2000);
      })
      .catch(function () {
        if (attempt < attempts) setTimeout(look, 2000);
      });
  };
  setTimeout(look, 2000);
})();
`.trim();

/** The waiting script, for a dashboard page that waits on a payer (a payment request's status). */
export const waitingScriptElement = () => html`<script>${trustedHtml(waitingScript)}</script>`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/**
 * The policy every page is served with: nothing loads from anywhere, and the one style element
 * and the one script allowed are the stylesheet and the waiting script above, by their hashes; the
 * script may ask the service itself, nothing else. `form-action` is left out on
 * purpose: a form posted here is answered with a redirect to the provider's or the merchant's
 * address, and Chromium applies `form-action` to every hop of that redirect.
 */
export const contentSecurityPolicyAllowing = (
  otherScripts: readonly string[] = [],
  /** A page that loads a vendor's script (Smile ID's capture): its origins, on that page alone. */
  vendor: { scriptSrc?: readonly string[]; frameSrc?: readonly string[] } = {},
  /** Style elements a group of pages adds after the stylesheet (the dashboard's). */
  otherStyles: readonly string[] = [],
) =>
  [
    "default-src 'none'",
    `style-src ${[stylesheet, ...otherStyles].map((style) => `'sha256-${sha256(style)}'`).join(' ')}`,
    // One directive with every hash: a browser obeys the first `script-src` and ignores a second.
    `script-src ${[...[waitingScript, ...otherScripts].map((script) => `'sha256-${sha256(script)}'`), ...(vendor.scriptSrc ?? [])].join(' ')}`,
    ...(vendor.frameSrc?.length ? [`frame-src ${vendor.frameSrc.join(' ')}`] : []),
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

export const contentSecurityPolicy = contentSecurityPolicyAllowing();

/** `url` with the page language pinned, for the language switch and the forms that follow it. */
export function withLanguage(url: string, language: Language): string {
  const target = new URL(url, 'http://base.invalid');
  target.searchParams.set('lang', language);
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? target.href : `${target.pathname}${target.search}`;
}

export interface LayoutOptions {
  language: Language;
  title: string;
  content: SafeHtml;
  /** The page's own URL, to offer it in the other language. */
  pageUrl?: string | undefined;
  /** The page waits on a provider's callback: the waiting script looks for the outcome. */
  waiting?: boolean | undefined;
}

/**
 * A sandbox stage (every stage but production, and the local host) says so on every page, above
 * the card: no one should take a test payment for a real one, or the other way round.
 */
const sandboxStage = () => process.env.SANDBOX === 'true';

/** Whether pages say they are a sandbox's: the dashboard's template asks too. */
export const isSandboxStage = () => sandboxStage();

export function layout({ language, title, content, pageUrl, waiting }: LayoutOptions): string {
  const other = languages.find((candidate) => candidate !== language) ?? 'fr';
  const t = messages[language];
  return html`<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="color-scheme" content="light">
<title>${title}</title>
<style>${trustedHtml(stylesheet)}</style>
</head>
<body>
<div class="page">
${sandboxStage() && html`<div class="sandbox-banner" role="note">${t.sandboxBanner}</div>`}
<main class="card">
${content}
</main>
<footer class="footer">
<span>${t.footer}</span>
${
  pageUrl &&
  html`<a href="${withLanguage(pageUrl, other)}" hreflang="${other}" lang="${other}" aria-label="${messages[other].switchTo}">${messages[other].languageName}</a>`
}
</footer>
</div>
${waiting && html`<script>${trustedHtml(waitingScript)}</script>`}
</body>
</html>
`.value;
}
