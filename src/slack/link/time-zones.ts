/** Time-zone options of the link modal: IANA zones known to this runtime, matching what was typed. */

import { capOptions } from '../../blockkit/index.js';
import type { OptionsArgs } from '../bolt/routes.js';
import { matches } from '../kit/options.js';
import { timeZoneOption } from './blocks.js';

const ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];

export async function timeZoneOptions(_svc: unknown, { ack, body }: OptionsArgs) {
  await ack({ options: capOptions(ZONES.filter((zone) => matches(zone, body.value)).map(timeZoneOption)) });
}
