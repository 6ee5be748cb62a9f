/**
 * What `admin create-device` prints for a device: how it connects and where it listens. Kept apart
 * from the command so tests can reach it (infra/admin.ts runs as soon as it is imported).
 */
import {
  AttachPolicyCommand,
  AttachThingPrincipalCommand,
  CreateKeysAndCertificateCommand,
  CreateThingCommand,
  DescribeEndpointCommand,
  IoTClient,
} from '@aws-sdk/client-iot';
import { soundboxTopics } from '#shared/domain/soundbox.ts';
import { localStageName } from '#shared/stage.ts';
import { devicePolicyName, deviceThingTypeName } from './naming.ts';
import type { StageEntry } from './stage-registry.ts';

export interface DeviceProvisioning {
  deviceId: string;
  mqtt: { url: string; clientId: string; username?: string; password?: string };
  certificatePem?: string;
  privateKey?: string;
  topics: ReturnType<typeof soundboxTopics>;
}

/** On the local host: the broker's address and a password of its own (username = device id). */
export function localDeviceProvisioning(
  deviceId: string,
  brokerUrl: string,
  credentials: { username: string; password: string },
): DeviceProvisioning {
  return {
    deviceId,
    mqtt: { url: brokerUrl, clientId: deviceId, ...credentials },
    topics: soundboxTopics(localStageName, deviceId),
  };
}

/**
 * On a deployed stage: the IoT thing (of the stage's type, its store in its attributes), a new
 * active certificate with its key (shown only now: IoT Core keeps no copy of the private key),
 * the stage's soundbox policy attached to it, and the certificate attached to the thing, which
 * the policy's `iot:Connection.Thing.*` variables need.
 */
export async function provisionIotThing(
  iot: IoTClient,
  stage: StageEntry,
  device: { deviceId: string; storeId: string; businessId: string },
): Promise<DeviceProvisioning> {
  await iot.send(
    new CreateThingCommand({
      thingName: device.deviceId,
      thingTypeName: deviceThingTypeName(stage.name, stage.kind === 'production'),
      attributePayload: { attributes: { storeId: device.storeId, businessId: device.businessId } },
    }),
  );
  const certificate = await iot.send(new CreateKeysAndCertificateCommand({ setAsActive: true }));
  const certificateArn = certificate.certificateArn as string;
  await iot.send(
    new AttachPolicyCommand({ policyName: devicePolicyName(stage.name), target: certificateArn }),
  );
  await iot.send(new AttachThingPrincipalCommand({ thingName: device.deviceId, principal: certificateArn }));
  const { endpointAddress } = await iot.send(new DescribeEndpointCommand({ endpointType: 'iot:Data-ATS' }));
  return {
    deviceId: device.deviceId,
    mqtt: { url: `mqtts://${endpointAddress}:8883`, clientId: device.deviceId },
    certificatePem: certificate.certificatePem as string,
    privateKey: certificate.keyPair?.PrivateKey as string,
    topics: soundboxTopics(stage.name, device.deviceId),
  };
}

export const newIotClient = () => new IoTClient({});
