import type { Cents } from '#shared/domain/money.ts';
import { typedFrancsToCents } from '#shared/domain/typed-amount.ts';

/** An amount a person typed in whole francs (`typedFrancsToCents`), from a form field that may be absent. */
export const readFrancs = (typed: string | undefined): Cents | undefined => typedFrancsToCents(typed ?? '');
