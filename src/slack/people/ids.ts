/**
 * The people topic's wire ids. Its *Planning profile* button is shared by every topic that names a
 * person (`ACTION.profileOpen` in kit/ids.ts); the people topic answers it.
 */

export const PEOPLE_ACTION = {
  /** A page of “who knows a notion”: More, or one of the closest notions offered for a typo. */
  knows: 'who_knows',
} as const;
