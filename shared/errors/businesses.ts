import { DomainError } from '#shared/errors/domain-error.ts';

/** Errors of a business and what it owns: its stores and their devices. */
export type BusinessErrorId = 'business_not_found' | 'store_not_found' | 'device_not_found';

export class BusinessNotFound extends DomainError {
  constructor(message = 'Business not found') {
    super('business_not_found', message);
  }
}

export class StoreNotFound extends DomainError {
  constructor() {
    super('store_not_found', 'Store not found');
  }
}

export class DeviceNotFound extends DomainError {
  constructor() {
    super('device_not_found', 'Device not found');
  }
}
