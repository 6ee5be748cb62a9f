import { apiHandler } from '#shared/http/api-handler.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { sendMessageFor } from '#shared/operations/messages.ts';
import { messageRoutes } from '#shared/routes.ts';
import { messageResponse, sendMessageBody } from '#shared/schemas/messages.ts';

export const handler = apiHandler(
  messageRoutes.sendMessage,
  { body: sendMessageBody },
  ({ caller, body, headers, context }) =>
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
