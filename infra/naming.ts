/**
 * Names of a stage's resources. Deterministic, so the admin command can find a deployed stage's
 * table from the stage name alone (`npm run admin -- --stage dev ...`).
 */
export const serviceName = 'partner-payments';

export const stackName = (stage: string) => `${serviceName}-${stage}`;

export const tableNameForStage = (stage: string) => `${serviceName}-${stage}`;

/** The key the sandbox provider signs callbacks with; sandbox stages only. */
export const sandboxProviderSecretName = (stage: string) => `${stackName(stage)}-sandbox-provider`;

/** A live provider's credentials (JSON), which operators put in after the first deploy. */
export const providerSecretName = (stage: string, adapter: string) =>
  `${stackName(stage)}-${adapter}-provider`;

/** The topic every alarm of the stage notifies. */
export const alarmTopicName = (stage: string) => `${stackName(stage)}-alarms`;

/** Stages whose data must survive anything: retained, deletion-protected. */
export const isProductionStage = (stage: string) => stage === 'prod';

/** Stage names become parts of resource names: keep them short and plain. */
export const stagePattern = /^[a-z][a-z0-9-]{0,19}$/;

/** A queue's dead-letter queue is named after it, on AWS and on the local host. */
export const deadLetterQueueName = (queueName: string) => `${queueName}-dlq`;
