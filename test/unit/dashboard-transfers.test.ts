import { describe, expect, it } from 'vitest';
import { readFrancs } from '#shared/operations/dashboard-transfers.ts';
import { stepUpBinding } from '#shared/operations/transfer-step-up.ts';

describe('sending money from the dashboard', () => {
  it('reads francs as people type them, in whole francs', () => {
    expect(readFrancs('1500')).toBe(150_000);
    expect(readFrancs('1 500')).toBe(150_000);
    expect(readFrancs('1\u202f500 F CFA')).toBe(150_000);
    expect(readFrancs('1.500')).toBe(150_000);
    expect(readFrancs('100 000 FCFA')).toBe(10_000_000);
    for (const typed of ['', 'abc', '1,5', '-100', '1e5']) expect(readFrancs(typed), typed).toBeUndefined();
  });

  it('binds a step-up code to every detail of its transfer', () => {
    const details = { memberId: 'm', key: 'k', body: { storeId: 's', amountCents: 150_000 } };
    const bound = stepUpBinding(details);
    expect(stepUpBinding({ ...details })).toBe(bound);
    expect(stepUpBinding({ ...details, body: { ...details.body, amountCents: 150_100 } })).not.toBe(bound);
    expect(stepUpBinding({ ...details, key: 'other' })).not.toBe(bound);
    expect(stepUpBinding({ ...details, memberId: 'n' })).not.toBe(bound);
  });
});
