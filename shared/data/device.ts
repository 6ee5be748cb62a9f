import { tableName } from '#shared/aws/dynamodb.ts';
import { queryPrefix } from '#shared/data/query.ts';
import { storeKey } from '#shared/data/store.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { Conflict, StoreNotFound } from '#shared/domain/errors.ts';

/**
 * Device: a soundbox QR terminal (an IoT thing of type SoundBoxQrTerminal), bound to exactly one
 * store. Its id is the thing name: case-sensitive and unique across the service.
 *
 * Keys:
 * - pk = BIZ#<businessId>, sk = DEVICE#<deviceId>: the business's view (listing, ownership).
 * - pk = DEVICE#<deviceId>, sk = DEVICE: the id's claim, so two businesses cannot register the
 *   same terminal, and a terminal's messages can be traced to its store without knowing the
 *   business.
 *
 * Access patterns and cost:
 * - list a business's devices: Query pk, begins_with(sk, "DEVICE#"), 0.5 RCU per 4 KB (~25 devices).
 * - get one device of a business: GetItem on the business view, 0.5 RCU.
 * - register: TransactWriteItems, a condition check on the store and 2 puts, 6 WCU.
 */
export const deviceType = 'SoundBoxQrTerminal';

export interface Device {
  id: string;
  type: typeof deviceType;
  businessId: string;
  storeId: string;
  createdAt: string;
}

export const deviceKey = (businessId: string, deviceId: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `DEVICE#${deviceId}`,
});

const deviceClaimKey = (deviceId: string) => ({ pk: `DEVICE#${deviceId}`, sk: 'DEVICE' });

/** IoT Core thing names: 1 to 128 of letters, digits, colon, underscore and hyphen. */
export const deviceIdPattern = /^[a-zA-Z0-9:_-]{1,128}$/;

export async function listDevices(businessId: string): Promise<Device[]> {
  return (await queryPrefix(`BIZ#${businessId}`, 'DEVICE#')).map(toDevice);
}

export async function registerDevice(input: {
  businessId: string;
  storeId: string;
  deviceId: string;
}): Promise<Device> {
  const device: Device = {
    id: input.deviceId,
    type: deviceType,
    businessId: input.businessId,
    storeId: input.storeId,
    createdAt: new Date().toISOString(),
  };
  const table = tableName();
  const taken = () => new Conflict(`Device ${device.id} is already registered`);
  await transactWrite([
    {
      write: {
        ConditionCheck: {
          TableName: table,
          Key: storeKey(device.businessId, device.storeId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      onConditionFailed: () => new StoreNotFound(),
    },
    {
      write: {
        Put: {
          TableName: table,
          Item: { ...deviceKey(device.businessId, device.id), entity: 'device', ...device },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: taken,
    },
    {
      write: {
        Put: {
          TableName: table,
          Item: {
            ...deviceClaimKey(device.id),
            entity: 'device_claim',
            deviceId: device.id,
            businessId: device.businessId,
            storeId: device.storeId,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: taken,
    },
  ]);
  return device;
}

function toDevice(item: Record<string, unknown>): Device {
  return {
    id: item.id as string,
    type: deviceType,
    businessId: item.businessId as string,
    storeId: item.storeId as string,
    createdAt: item.createdAt as string,
  };
}
