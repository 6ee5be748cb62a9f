import { type Language, languages } from '#shared/domain/languages.ts';

const isLanguage = (value: string): value is Language => (languages as readonly string[]).includes(value);

/**
 * The page's language: an explicit `?lang=` (the page's own language switch) wins; otherwise the
 * supported language the browser ranks highest in Accept-Language, matched on the primary subtag
 * (`fr-CI` is French, `en-US` English); French when the browser names neither.
 */
export function negotiateLanguage(
  acceptLanguage: string | undefined,
  requested?: string | undefined,
): Language {
  const explicit = requested?.trim().toLowerCase();
  if (explicit && isLanguage(explicit)) return explicit;
  let best: Language = 'fr';
  let bestQuality = 0;
  for (const entry of (acceptLanguage ?? '').split(',')) {
    const [tag = '', ...parameters] = entry.split(';').map((part) => part.trim());
    const primary = tag.split('-')[0]?.toLowerCase() ?? '';
    if (!isLanguage(primary)) continue;
    const qualityParameter = parameters.find((parameter) => /^q\s*=/i.test(parameter));
    const quality = qualityParameter === undefined ? 1 : Number(qualityParameter.split('=')[1]);
    // Strictly greater: between equal qualities the browser's own order decides.
    if (Number.isFinite(quality) && quality > bestQuality) {
      best = primary;
      bestQuality = quality;
    }
  }
  return best;
}
