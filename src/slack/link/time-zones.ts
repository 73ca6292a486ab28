/** Time-zone options of the link modal: IANA zones known to this runtime, matching what was typed. */

import { capOptions } from '../../blockkit/index.js';
import type { OptionsArgs } from '../bolt/router.js';
import { matches } from '../kit/options.js';
import { timeZoneOption } from './blocks.js';

type Args = OptionsArgs;

const ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];

export function timeZoneOptions() {
  return async ({ ack, body }: Args) => {
    await ack({ options: capOptions(ZONES.filter((zone) => matches(zone, body.value)).map(timeZoneOption)) });
  };
}
