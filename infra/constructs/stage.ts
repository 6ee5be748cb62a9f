import type { RemovalPolicy } from 'aws-cdk-lib';

/** What every part of a stage's stack is built from: its name and kind, decided once in the stack. */
export interface Stage {
  readonly name: string;
  readonly production: boolean;
  /** What becomes of stateful resources when the stack is deleted: kept on production only. */
  readonly removalPolicy: RemovalPolicy;
}
