/**
 * How a direct adapter (Wave, MTN: no published status) learns that an operator is down, from its
 * own calls: `failureThreshold` starts that could not reach the provider (or met its server
 * errors after the retries) within `windowMinutes`, and no start answered since, and the operator
 * is down: the API answers 503 `provider_unavailable` and the payer pages offer the country's
 * other operators, until the failures leave the window (then the next call tries again) or a call
 * succeeds (shared/providers/operator-health.ts). A refusal (a payer not found, a declined
 * payment) is an answer, not a failure. Data only: the stack's alarms read it too.
 */
export const operatorHealthRule = { failureThreshold: 5, windowMinutes: 5, retryAfterSeconds: 60 } as const;
