/**
 * What every admin form shares. Each is pushed over a section view and carries what it is for and
 * the view it came from (its private_metadata, {@link FormMeta}). Each is submitted through
 * kit/submission.ts (checked without I/O, acked with a working view, done once per view, given back
 * with what was typed on failure); after a change, the section view the form was pushed from is
 * shown again with one line saying so.
 */
import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import { type Mrkdwn, md } from '../../blockkit/index.js';
import type { SubmitArgs } from '../bolt/routes.js';
import type { Acting } from '../kit/identity.js';
import { formProblem } from '../kit/modal.js';
import { parseCarried, toWire, wireValue } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import type { Outcome } from '../kit/submission.js';
import {
  type AdminPlace,
  AdminPlaceWire,
  type Flash,
  type FormRequest,
  FormRequestWire,
  formRequestFromWire,
  formRequestToWire,
  placeFromWire,
  placeToWire,
} from './common.js';
import { showPlace } from './navigate.js';

/** A form's private_metadata as code reads it (see {@link FormMeta}). */
export interface FormMeta extends FormRequest {
  /** The section view the form was pushed from, shown again after a change. */
  parentViewId?: string;
  parentPlace?: AdminPlace;
}

/** A form's private_metadata: what it is for, and the section view (id and place) it came from. */
export const FormMeta = wireValue(
  // On the wire: the form's request, `v` the section view's id, `at` its place.
  FormRequestWire.extend({ v: z.string().optional(), at: AdminPlaceWire.optional() }),
  ({ v, at, ...request }): FormMeta => ({
    ...formRequestFromWire(request),
    ...(v !== undefined ? { parentViewId: v } : {}),
    ...(at !== undefined ? { parentPlace: placeFromWire(at) } : {}),
  }),
  ({ parentViewId, parentPlace, ...request }) => ({
    ...formRequestToWire(request),
    ...(parentViewId !== undefined ? { v: parentViewId } : {}),
    ...(parentPlace !== undefined ? { at: placeToWire(parentPlace) } : {}),
  }),
);
export const formMetaOf = (text: string | undefined) => parseCarried(FormMeta, text);

export const meta = (m: FormMeta) => toWire(FormMeta, m);
export const problemBlocks = (problem?: Mrkdwn): KnownBlock[] => (problem ? [formProblem(problem)] : []);

/** What the form is for (its private_metadata); a form from an older version has none it can use. */
export const metaField = z.custom<FormMeta>(
  (v) => v !== undefined,
  'This form is from an older version: close it and start again.',
);

/** Shows the section view the form came from again, with `flash` on top (best effort). */
async function refreshParent(svc: Services, args: SubmitArgs, meta: FormMeta, flash: Flash, acting: Acting) {
  if (!meta.parentViewId || !meta.parentPlace) return;
  await showPlace(svc, args, { id: meta.parentViewId }, meta.parentPlace, flash, acting).catch(
    (error: unknown) =>
      svc.deps.logger.warn(
        { action: `admin ${meta.form}`, err: error },
        'could not refresh the admin section',
      ),
  );
}

/** Done: says it in the form's place and on top of the section it came from. */
export async function done(
  svc: Services,
  args: SubmitArgs,
  meta: FormMeta,
  acting: Acting,
  text: Mrkdwn,
): Promise<Outcome> {
  await refreshParent(svc, args, meta, { ok: text }, acting);
  return { text: md`:white_check_mark: ${text}` };
}
