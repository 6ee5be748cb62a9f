/**
 * The stage a function runs on, from `STAGE`, which the stack sets on every function. Stages may
 * share an AWS account (dev and staging do), and IoT Core's topics and CloudWatch's metrics are
 * account-wide: device topics and metric dimensions carry the stage so that one stage never
 * reaches another's devices or counts into its alarms. Unset, it is the local host (and the tests).
 */
export const localStageName = 'local';

export const stageName = (): string => process.env.STAGE || localStageName;
