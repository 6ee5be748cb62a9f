/**
 * The dashboard's styles, after the hosted pages' own (`layout.ts`), which it reuses for fields and
 * buttons. Phone first (360 px): a header with a way to the menu, the page, then the menu at the
 * bottom; from 1024 px the menu is a side bar beside a wide page, and tables show their columns.
 *
 * Nothing a person reads is cut inside a word: text breaks between words (`break-word` only breaks
 * a word longer than the whole line), amounts never wrap, ids stay on one line with an ellipsis, key
 * and value stack on a phone. A separate element so the payer's pages do not carry it; allowed by
 * its hash in the dashboard's policy.
 */
export const dashboardStylesheet = `
.skip-link{position:absolute;left:8px;top:-200px;z-index:10;padding:12px 16px;background:#fde047;color:#0b0c0c;font-weight:700;text-decoration:underline}
.skip-link:focus{top:8px;outline:3px solid #0b0c0c;outline-offset:0}
.visually-hidden{position:absolute!important;width:1px!important;height:1px!important;margin:0!important;padding:0!important;overflow:hidden!important;clip:rect(0 0 0 0)!important;clip-path:inset(50%)!important;border:0!important;white-space:nowrap!important}
.dashboard{min-height:100vh;display:flex;flex-direction:column}
.dashboard .sandbox-banner{max-width:none;margin:0;border-radius:0}
.dashboard-header{display:flex;align-items:center;justify-content:space-between;gap:12px;padding:0 12px;background:#0f766e;color:#fff}
.dashboard-header a{display:inline-flex;align-items:center;min-height:48px;padding:0 4px;color:#fff;font-weight:700;text-decoration:none}
.dashboard-header a:focus-visible{outline:3px solid #fde047;outline-offset:0}
.dashboard-header .menu-link{text-decoration:underline}
.dashboard-body{flex:1 0 auto;width:100%}
.dashboard-main{display:block;width:100%;background:#fff;overflow-wrap:break-word}
.dashboard-main h1{margin:4px 0 8px;font-size:24px;line-height:1.25}
.dashboard-main h2{font-size:19px;line-height:1.3;margin:16px 0 6px}
.dashboard-main h3{font-size:17px;line-height:1.3;margin:12px 0 4px}
.dashboard-nav{background:#f8fafc;border-top:1px solid #e5e7eb;padding:8px 0}
.dashboard-nav h2{margin:0;padding:4px 12px;font-size:16px}
.dashboard-nav ul{list-style:none;margin:0;padding:0}
.dashboard-nav a{display:block;min-height:44px;padding:10px 12px;border-left:4px solid transparent;line-height:24px;text-decoration:none}
.dashboard-nav a:hover{text-decoration:underline}
.dashboard-nav a[aria-current=page]{border-left-color:#0f766e;background:#f0fdfa;color:#0b0c0c;font-weight:700}
.dashboard .footer{max-width:none;padding:8px 12px}
.facts{grid-template-columns:minmax(0,1fr);gap:0}
.facts dt,.facts dd{min-width:0}
.facts dt{margin-top:6px;font-size:14px;line-height:1.35}
.facts dd{text-align:left;overflow-wrap:break-word;word-break:normal}
.summary-list{margin:0 0 12px}
.summary-row{padding:6px 0;border-bottom:1px solid #e5e7eb}
.summary-row dt{font-size:14px;color:#4b5563;line-height:1.35}
.summary-row dd{margin:0;font-weight:600;min-width:0}
.summary-row dd.summary-action{font-weight:400}
.value-amount,.nowrap,.amount{white-space:nowrap}
.value-id{display:inline-block;max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;vertical-align:bottom;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
.choices{margin:8px 0 0}
.choice{display:flex;align-items:flex-start;gap:10px;min-height:44px;padding:8px 0}
.choice input{flex:none;width:22px;height:22px;margin:2px 0 0;accent-color:#0f766e}
.choice-label{min-width:0;overflow-wrap:break-word}
.choice input:focus-visible{outline:3px solid #0f766e;outline-offset:2px}
.providers .provider>span{min-width:0;overflow-wrap:break-word}
.pager{display:flex;justify-content:space-between;gap:12px;margin:12px 0}
.pager a{display:inline-block;min-height:44px;padding:10px 0}
.pager a[rel=next]{margin-left:auto}
.confirmation-panel{margin:0 0 12px;padding:12px 16px;border-radius:12px;background:#0f766e;color:#fff}
.confirmation-panel h2{margin:0;color:#fff}
.confirmation-panel p{margin:4px 0 0}
.data-table{width:100%;margin:8px 0;border-collapse:collapse;font-size:15px}
.data-table td{vertical-align:top}
@media (max-width:1023.98px){
.data-table thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}
.data-table,.data-table tbody,.data-table tr,.data-table td{display:block;width:100%}
.data-table tr{margin:0 0 8px;padding:6px 12px;border:1px solid #d1d5db;border-radius:12px}
.data-table td{padding:1px 0;min-width:0}
.data-table td::before{content:attr(data-label) " ";color:#4b5563;font-size:14px}
.data-table td.cell-lead,.data-table td.cell-meta{display:inline;padding:0}
.data-table td.cell-lead::before,.data-table td.cell-meta::before{content:none}
.data-table td.cell-lead+td.cell-lead::before,.data-table td.cell-meta+td.cell-meta::before{content:" · ";color:inherit;font-size:inherit}
.data-table td.cell-lead+td.cell-meta::before{content:"\\A";white-space:pre}
.data-table td.cell-meta{color:#4b5563;font-size:14px}
.data-table td.cell-meta:empty{display:none}
}
@media (min-width:600px){
.facts{grid-template-columns:minmax(8rem,auto) minmax(0,1fr);gap:6px 16px}
.facts dt{margin-top:0}
.summary-row{display:grid;grid-template-columns:minmax(10rem,30%) minmax(0,1fr) auto;gap:16px}
}
@media (min-width:1024px){
body{background:#eef1f5}
.dashboard-header .menu-link{display:none}
.dashboard-body{display:grid;grid-template-columns:15rem minmax(0,1fr);gap:24px;max-width:1400px;margin:0 auto;padding:24px}
.dashboard-main{grid-column:2;grid-row:1;border-radius:16px;box-shadow:0 1px 3px rgba(15,23,42,.08)}
.dashboard-main>.content{padding:16px 24px 24px}
.dashboard-nav{grid-column:1;grid-row:1;align-self:start;border:0;border-radius:16px;background:#fff}
.data-table th,.data-table td{padding:8px 10px;border-bottom:1px solid #e5e7eb;text-align:left}
.data-table th{font-size:14px;color:#374151;background:#f8fafc}
.data-table .cell-amount{text-align:right;white-space:nowrap}
.data-table .cell-id{max-width:14rem}
}
@media print{body{background:#fff}.skip-link,.dashboard-header,.dashboard-nav,.dashboard .footer,.dashboard .sandbox-banner{display:none}.dashboard-body{display:block;padding:0}.dashboard-main{box-shadow:none}}
`.trim();
