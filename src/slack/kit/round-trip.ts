/**
 * JSON the app hands to Slack and gets back (private_metadata, button values). It comes back as
 * text from the outside, so it is parsed defensively and checked with its schema.
 */
import type { z } from 'zod';

/** The parsed JSON, or undefined when the text is absent or not JSON. */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The carried value checked with `schema`, or undefined when it is missing or malformed. */
export function parseCarried<S extends z.ZodType>(
  schema: S,
  text: string | undefined,
): z.output<S> | undefined {
  const parsed = schema.safeParse(parseJson(text));
  return parsed.success ? parsed.data : undefined;
}

/**
 * A value carried through Slack whose keys on the wire are short (`s`, `t`…): values already posted
 * keep them for ever, and button values are bounded. Code never sees them: it reads the value
 * through this schema, which checks the wire shape and gives named fields, and writes it back with
 * {@link toWire}. The wire shape is frozen by test/slack/wire-ids.test.ts.
 */
export type WireValue<Wire extends z.ZodType, Named> = z.ZodPipe<
  Wire,
  z.ZodTransform<Named, z.output<Wire>>
> & {
  /** The named value as it goes on the wire. Not checked: what comes back is. */
  toWire(value: Named): z.input<Wire>;
};

/** A {@link WireValue} from its wire schema and the two mappings between short keys and names. */
export function wireValue<Wire extends z.ZodType, Named>(
  wire: Wire,
  fromWire: (value: z.output<Wire>) => Named,
  toWire: (value: Named) => z.input<Wire>,
): WireValue<Wire, Named> {
  return Object.assign(wire.transform(fromWire), { toWire });
}

/** The JSON text to hand to Slack (a button value, private_metadata) for a named value. */
export function toWire<Named>(schema: { toWire(value: Named): unknown }, value: Named): string {
  return JSON.stringify(schema.toWire(value));
}

/**
 * {@link toWire}, with the wire value checked by the wire schema first (throwing as its `parse`
 * does): for writers that refuse to hand Slack a value they could not read back.
 */
export function toCheckedWire<Wire extends z.ZodType, Named>(
  schema: WireValue<Wire, Named>,
  value: Named,
): string {
  return JSON.stringify(schema.in.parse(schema.toWire(value)));
}
