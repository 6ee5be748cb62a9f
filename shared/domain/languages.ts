/**
 * The languages the service speaks to people (hosted pages, activity names). French first: it is
 * the language of the payers served.
 */
export const languages = ['fr', 'en'] as const;
export type Language = (typeof languages)[number];
