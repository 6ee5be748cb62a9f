/** `YYYY-MM-DD HH:mm:ss` in UTC: the webhook and transaction `executedAt` format integrations parse. */
export const executedAtFormat = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ');

/** The longest range one transaction listing (or export) covers: 90 days after its first. */
export const maxRangeDays = 90;
