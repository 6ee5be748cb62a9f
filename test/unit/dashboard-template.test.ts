import { describe, expect, it } from 'vitest';
import { idValue, summaryList, table } from '#shared/pages/components.ts';
import { dashboardErrorPage, dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { html } from '#shared/pages/html.ts';

const context = { language: 'fr' as const, languagePinned: false, baseUrl: 'https://pay.example' };
const page = (role?: 'owner' | 'viewer') =>
  dashboardTemplate(
    { ...context, role },
    { section: 'transactions', title: 'Transactions', content: html`<h1>T</h1>` },
  );

describe('the dashboard’s page template', () => {
  it('opens with the skip link to the main content, before the header and the navigation', () => {
    const body = page('owner').split('<body>')[1] ?? '';
    expect(body.trim().startsWith('<a class="skip-link" href="#main-content">Aller au contenu</a>')).toBe(
      true,
    );
    expect(body.indexOf('<main id="main-content"')).toBeLessThan(body.indexOf('<nav id="dashboard-nav"'));
  });

  it('shows in the navigation only the sections the member’s role opens, the current one marked', () => {
    expect(page('owner')).toContain('/dashboard/audit');
    expect(page('viewer')).not.toContain('/dashboard/audit');
    expect(page('viewer')).toContain('href="https://pay.example/dashboard/transactions" aria-current="page"');
  });

  it('answers an error in the dashboard’s words, with the navigation and the way home', () => {
    const refused = dashboardErrorPage({ ...context, role: 'viewer' }, 403, 'req-1');
    expect(refused).toContain('Vous n’avez pas accès à cette action');
    expect(refused).toContain('id="dashboard-nav"');
    expect(refused).not.toContain('Demande invalide');
    const missing = dashboardErrorPage({ ...context, language: 'en' }, 404, 'req-2');
    expect(missing).toContain('Page not found');
    expect(missing).toContain('Back to the dashboard’s home');
    expect(dashboardErrorPage(context, 500, 'req-3')).toContain('req-3');
  });
});

describe('the dashboard’s components', () => {
  it('escape what they show and keep the whole of an id in its title', () => {
    const list = summaryList([{ key: 'Réf', value: 'order-<b>', kind: 'id' }]).value;
    expect(list).toContain('title="order-&lt;b&gt;"');
    expect(list).not.toContain('<b>');
    expect(idValue('abc').value).toBe('<span class="value-id" title="abc">abc</span>');
  });

  it('give a table column headers and each cell its column’s name for the phone’s cards', () => {
    const markup = table({
      caption: 'Liste',
      columns: [{ header: 'Montant', kind: 'amount', cell: (row: { amount: string }) => row.amount }],
      rows: [{ amount: '2 000 F CFA' }],
    }).value;
    expect(markup).toContain('<th scope="col" class="cell-amount">Montant</th>');
    expect(markup).toContain('<td data-label="Montant" class="cell-amount">2 000 F CFA</td>');
  });
});
