import { messageEndpoints, messageResponse } from '#shared/api/messages.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { sendMessageFor } from '#shared/operations/messages.ts';

export const handler = apiHandler(messageEndpoints.sendMessage, ({ caller, body, headers, context }) =>
  idempotent(
    {
      operation: 'sendMessage',
      businessId: caller.businessId,
      key: headers['idempotency-key'],
      payload: body,
      context,
    },
    async () => messageResponse(await sendMessageFor(caller, body)),
  ),
);
