/**
 * HTML that is already safe to emit. Only the `html` tag and `trustedHtml` make one, so a value
 * that came from a merchant, a payer or a URL can reach a page only through escaping.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes for element text and for quoted attribute values alike (templates always quote attributes). */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"'`]/g, (char) => entities[char] ?? char);

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  // `cond && html\`...\`` leaves false behind when the condition does not hold: render nothing.
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** Template tag: every interpolated value is escaped unless it is itself the result of `html`. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}

/** For constant markup written in this codebase (the stylesheet), never for data. */
export const trustedHtml = (markup: string): SafeHtml => new SafeHtml(markup);
