import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { queryPrefix } from '#shared/data/query.ts';
import { storeKey } from '#shared/data/store.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { Conflict } from '#shared/errors/request.ts';

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
 * - its last payment: `lastPaymentRequestId`, set by the update that checks the device in a
 *   soundbox request's creating transaction (2 WCU there, as the condition check it replaced).
 * - register: TransactWriteItems, a condition check on the store and 2 puts, 6 WCU.
 * - presence (heartbeats and IoT lifecycle events, kept on the business view so the listing
 *   stays one query): the device's business from its claim, GetItem 0.5 RCU (cached per
 *   container, it never changes), then a conditional UpdateItem, 1 WCU. A heartbeat or event
 *   older than the one recorded changes nothing, so late or reordered messages cannot roll it back.
 */
export const deviceType = 'SoundBoxQrTerminal';

export interface Device {
  id: string;
  type: typeof deviceType;
  businessId: string;
  storeId: string;
  createdAt: string;
  /** Connected to the broker, by the last IoT lifecycle event. */
  connected?: boolean | undefined;
  /** When its last heartbeat was received. */
  lastSeenAt?: string | undefined;
  /** The last payment request made for it, noted by the request's creation. */
  lastPaymentRequestId?: string | undefined;
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

export async function getDevice(businessId: string, deviceId: string): Promise<Device | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: deviceKey(businessId, deviceId) }),
  );
  return Item ? toDevice(Item) : undefined;
}

const businessOfDevice = new Map<string, string>();

/** The business a device id is registered to, from its claim; undefined for an unknown device. */
export async function findDeviceBusiness(deviceId: string): Promise<string | undefined> {
  const cached = businessOfDevice.get(deviceId);
  if (cached) return cached;
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: deviceClaimKey(deviceId) }),
  );
  const businessId = Item?.businessId as string | undefined;
  if (businessId) businessOfDevice.set(deviceId, businessId);
  return businessId;
}

/** Answers false when a newer heartbeat was already recorded, or the device is not registered. */
export async function recordHeartbeat(businessId: string, deviceId: string, at: string): Promise<boolean> {
  return conditionalUpdate(
    new UpdateCommand({
      TableName: tableName(),
      Key: deviceKey(businessId, deviceId),
      UpdateExpression: 'SET lastSeenAt = :at',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastSeenAt) OR lastSeenAt < :at)',
      ExpressionAttributeValues: { ':at': at },
    }),
  );
}

/** Answers false when a newer lifecycle event was already recorded, or the device is not registered. */
export async function recordConnection(
  businessId: string,
  deviceId: string,
  connected: boolean,
  at: string,
): Promise<boolean> {
  return conditionalUpdate(
    new UpdateCommand({
      TableName: tableName(),
      Key: deviceKey(businessId, deviceId),
      UpdateExpression: 'SET connected = :connected, connectionChangedAt = :at',
      ConditionExpression:
        'attribute_exists(pk) AND (attribute_not_exists(connectionChangedAt) OR connectionChangedAt < :at)',
      ExpressionAttributeValues: { ':connected': connected, ':at': at },
    }),
  );
}

async function conditionalUpdate(command: UpdateCommand): Promise<boolean> {
  try {
    await documentClient.send(command);
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

function toDevice(item: Record<string, unknown>): Device {
  return {
    id: item.id as string,
    type: deviceType,
    businessId: item.businessId as string,
    storeId: item.storeId as string,
    createdAt: item.createdAt as string,
    connected: item.connected as boolean | undefined,
    lastSeenAt: item.lastSeenAt as string | undefined,
    lastPaymentRequestId: item.lastPaymentRequestId as string | undefined,
  };
}
