import type { Language } from '#shared/domain/languages.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';

const text = {
  fr: {
    figures: 'Voir les chiffres jour par jour',
    day: 'Jour',
    total: (amount: string) => `Total : ${amount}.`,
    best: (amount: string, day: string) => `Meilleur jour : ${amount}, le ${day}.`,
    none: 'Rien ces jours-là.',
    range: (first: string, last: string) => `du ${first} au ${last}`,
  },
  en: {
    figures: 'Show the figures day by day',
    day: 'Day',
    total: (amount: string) => `Total: ${amount}.`,
    best: (amount: string, day: string) => `Best day: ${amount}, on ${day}.`,
    none: 'Nothing on those days.',
    range: (first: string, last: string) => `from ${first} to ${last}`,
  },
} satisfies Record<Language, unknown>;

/** `2026-11-27` as `27/11`, the way both languages of the pages write a day. */
export const shortDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

const width = 300;
const height = 120;
const plotTop = 14;
const plotBottom = 100;

/**
 * A bar chart of an amount per day, drawn here as SVG (no script, nothing loaded): one bar a day,
 * the largest day's amount written at the top, the first and last days under the axis. It is one
 * image for assistive technology (`role="img"`, named by its title and described by its range,
 * total and best day), and the same figures follow it as a table in a disclosure anyone can open.
 */
export function dayBarChart(input: {
  language: Language;
  /** Unique on the page: the title's and description's ids derive from it. */
  id: string;
  title: string;
  /** The column of the figures' table: what each day's amount is. */
  valueLabel: string;
  days: readonly { day: string; cents: number }[];
  currency: string;
}): SafeHtml {
  const t = text[input.language];
  const { days, currency } = input;
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  const max = Math.max(0, ...days.map((day) => day.cents));
  const total = days.reduce((sum, day) => sum + day.cents, 0);
  const best = days.find((day) => day.cents === max && max > 0);
  const slot = width / Math.max(1, days.length);
  const barWidth = Math.max(1, slot - 2);
  const scale = (cents: number) => (max === 0 ? 0 : ((plotBottom - plotTop) * cents) / max);
  const description = [
    t.range(shortDay(first), shortDay(last)),
    t.total(formatAmount(total, currency)),
    best ? t.best(formatAmount(best.cents, currency), shortDay(best.day)) : t.none,
  ].join(' ');
  const bars = days.map((day, index) => {
    const barHeight = scale(day.cents);
    // A day with money shows at least a sliver, so a small day is not read as none.
    const drawn = day.cents > 0 ? Math.max(1.5, barHeight) : 0;
    return html`<rect x="${(index * slot + 1).toFixed(1)}" y="${(plotBottom - drawn).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${drawn.toFixed(1)}" fill="#0f766e"/>`;
  });
  return html`<div data-testid="chart">
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-labelledby="${input.id}-title ${input.id}-desc" focusable="false">
<title id="${input.id}-title">${input.title}</title>
<desc id="${input.id}-desc">${description}</desc>
<text x="0" y="10" font-size="10" fill="#374151">${formatAmount(max, currency)}</text>
<line x1="0" y1="${plotTop}" x2="${width}" y2="${plotTop}" stroke="#e5e7eb" stroke-width="1"/>
${bars}
<line x1="0" y1="${plotBottom + 0.5}" x2="${width}" y2="${plotBottom + 0.5}" stroke="#6b7280" stroke-width="1"/>
<text x="0" y="${height - 4}" font-size="10" fill="#374151">${shortDay(first)}</text>
<text x="${width}" y="${height - 4}" font-size="10" fill="#374151" text-anchor="end">${shortDay(last)}</text>
</svg>
<details class="more-providers"><summary>${t.figures}</summary>
<table class="tests"><caption class="muted">${input.title}</caption>
<thead><tr><th scope="col">${t.day}</th><th scope="col">${input.valueLabel}</th></tr></thead>
<tbody>${[...days].reverse().map((day) => html`<tr><td>${shortDay(day.day)}</td><td>${formatAmount(day.cents, currency)}</td></tr>`)}</tbody>
</table>
</details>
</div>`;
}
