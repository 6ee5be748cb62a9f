/**
 * A deployed stage's Smile ID account: the secret (its ARN in `SMILE_ID_SECRET_ARN`) holding JSON
 * with both fields, created empty by the stack where the stage's identity vendor is Smile ID and
 * filled by an operator (`npm run admin -- put-provider-secret --provider smileid`), as the payment
 * providers' credentials are. Apart from the adapter, so the stack and the admin command name it
 * without loading Smile ID's SDK.
 */
export const smileIdSecretVariable = 'SMILE_ID_SECRET';
export const smileIdSecretFields = ['partnerId', 'apiKey'] as const;
