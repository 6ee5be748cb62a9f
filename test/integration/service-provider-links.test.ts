import { describe, expect, it } from 'vitest';
import { createBusiness } from '#shared/data/business.ts';
import {
  detachMerchant,
  getLink,
  isLinked,
  linkMerchant,
  listMerchantLinks,
  listProviderLinks,
} from '#shared/data/service-provider-link.ts';
import { ForbiddenAction } from '#shared/errors/auth.ts';
import { BusinessNotFound } from '#shared/errors/businesses.ts';
import { BadRequest } from '#shared/errors/request.ts';
import { AlreadyLinked } from '#shared/errors/service-providers.ts';

const unknownId = '00000000-0000-4000-8000-000000000000';

async function business(name: string, isServiceProvider = false) {
  const { business } = await createBusiness({
    name,
    apiAccessEnabled: true,
    isServiceProvider,
    verificationLevel: 1,
  });
  return business;
}

describe('service-provider links', () => {
  it('link a provider to a merchant, with both names, seen from both sides', async () => {
    const provider = await business('Intégrateur', true);
    const merchant = await business('Boutique Awa');
    const link = await linkMerchant(provider.id, merchant.id);
    expect(link).toEqual({
      id: expect.any(String),
      serviceProviderBusinessId: provider.id,
      serviceProviderBusinessName: 'Intégrateur',
      merchantBusinessId: merchant.id,
      merchantBusinessName: 'Boutique Awa',
      linkedAt: expect.any(String),
    });
    expect(await getLink(provider.id, merchant.id)).toEqual(link);
    expect(await isLinked(provider.id, merchant.id)).toBe(true);
    expect(await listMerchantLinks(provider.id)).toEqual([link]);
    expect(await listProviderLinks(merchant.id)).toEqual([link]);
  });

  it('go one way only: the merchant is not linked to the provider', async () => {
    const provider = await business('P', true);
    const merchant = await business('M');
    await linkMerchant(provider.id, merchant.id);
    expect(await isLinked(merchant.id, provider.id)).toBe(false);
    expect(await listMerchantLinks(merchant.id)).toEqual([]);
  });

  it('answer already_linked, the merchant id in extras, to a second link', async () => {
    const provider = await business('P', true);
    const merchant = await business('M');
    await linkMerchant(provider.id, merchant.id);
    const error = await linkMerchant(provider.id, merchant.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AlreadyLinked);
    expect(error).toMatchObject({ id: 'already_linked', extras: merchant.id });
    expect(await listMerchantLinks(provider.id)).toHaveLength(1);
  });

  it('let exactly one of two simultaneous links through', async () => {
    const provider = await business('P', true);
    const merchant = await business('M');
    const results = await Promise.allSettled([
      linkMerchant(provider.id, merchant.id),
      linkMerchant(provider.id, merchant.id),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')?.reason).toBeInstanceOf(AlreadyLinked);
  });

  it('are made only by a service provider', async () => {
    const notProvider = await business('Not a provider');
    const merchant = await business('M');
    await expect(linkMerchant(notProvider.id, merchant.id)).rejects.toBeInstanceOf(ForbiddenAction);
    expect(await isLinked(notProvider.id, merchant.id)).toBe(false);
  });

  it('need both businesses to exist, and two of them', async () => {
    const provider = await business('P', true);
    await expect(linkMerchant(provider.id, unknownId)).rejects.toBeInstanceOf(BusinessNotFound);
    await expect(linkMerchant(unknownId, provider.id)).rejects.toBeInstanceOf(BusinessNotFound);
    await expect(linkMerchant(provider.id, provider.id)).rejects.toBeInstanceOf(BadRequest);
  });

  it('list a provider its own merchants only', async () => {
    const provider = await business('P', true);
    const other = await business('Other provider', true);
    const [a, b, c] = [await business('A'), await business('B'), await business('C')];
    await linkMerchant(provider.id, a.id);
    await linkMerchant(provider.id, b.id);
    await linkMerchant(other.id, c.id);
    await linkMerchant(other.id, a.id);
    expect((await listMerchantLinks(provider.id)).map((l) => l.merchantBusinessId).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    expect((await listProviderLinks(a.id)).map((l) => l.serviceProviderBusinessId).sort()).toEqual(
      [provider.id, other.id].sort(),
    );
  });

  it('once detached grant nothing, are not listed, and may be made again', async () => {
    const provider = await business('P', true);
    const merchant = await business('M');
    const first = await linkMerchant(provider.id, merchant.id);
    await detachMerchant(provider.id, merchant.id);
    expect(await isLinked(provider.id, merchant.id)).toBe(false);
    expect(await listMerchantLinks(provider.id)).toEqual([]);
    expect(await listProviderLinks(merchant.id)).toEqual([]);
    await expect(detachMerchant(provider.id, merchant.id)).rejects.toBeInstanceOf(BusinessNotFound);

    const again = await linkMerchant(provider.id, merchant.id);
    expect(again.id).not.toBe(first.id);
    expect(await listMerchantLinks(provider.id)).toEqual([again]);
    expect(await listProviderLinks(merchant.id)).toEqual([again]);
  });
});
