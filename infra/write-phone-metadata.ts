import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import mobile from 'libphonenumber-js/mobile/metadata';
import { projectRoot } from '#infra/paths.ts';
import { uemoaPhoneMetadataFrom } from '#infra/phone-metadata.ts';

/**
 * Writes the phone-number rules of the eight UEMOA countries, cut from libphonenumber-js's mobile
 * metadata: `npm run phone-metadata` after upgrading libphonenumber-js (a unit test fails until then).
 */
const target = path.join(projectRoot, 'shared/domain/uemoa-phone-metadata.json');
await writeFile(target, `${JSON.stringify(uemoaPhoneMetadataFrom(mobile), null, 2)}\n`);
console.log(`Wrote ${path.relative(process.cwd(), target)}`);
