/**
 * The wire ids every topic shares: the slash command, the modal with nothing to submit, the Connect
 * button (any message or modal may show it), and the inputs several topics' forms have in common.
 * Each topic declares its own ids in its `ids.ts`; none of them may change once shipped (a test
 * holds them: test/slack/wire-ids.test.ts).
 */

/** The one slash command. */
export const COMMAND = '/plan';

/** Modal callback ids shared by every topic. */
export const VIEW = {
  /** A modal that is still loading or showing a result: it has nothing to submit. */
  info: 'info',
} as const;

/** Action ids shared by every topic. */
export const ACTION = {
  /** The Connect button, in a message or a modal (the account topic answers it). */
  connectOpen: 'connect_open',
  /**
   * *Connect again*, offered to someone who disconnected: the account the app made for them is given
   * back (a new token for it) while it is open (the account topic answers it).
   */
  connectAgain: 'connect_again',
  /**
   * *Start with a new account*, offered to someone whose previous account is closed or was their
   * own pasted one: the app makes them a new, empty account (the account topic answers it).
   */
  connectNewAccount: 'connect_new_account',
  /** Picking a team refreshes the channel select (link, create-task and feature forms). */
  teamPicked: 'team_picked',
  /**
   * *Planning profile*, beside a person named on a card or in a list; carries their Slack user id
   * (the people topic answers it).
   */
  profileOpen: 'person_profile',
} as const;

/**
 * Block ids shared by every topic. `formProblem`: the line a form shows on top of what was typed when
 * it is given back after a refusal — a form redrawn from the blocks Slack hands back drops it by id.
 */
export const BLOCK = {
  formProblem: 'form_problem',
} as const;

/** One input of a form: the block that holds it and the element's action id. */
export interface Field {
  readonly block: string;
  readonly action: string;
}

/** The usual input: block `name`, element `name_input`. */
export const field = (name: string): Field => ({ block: name, action: `${name}_input` });

/** Inputs several topics' forms share. Block ids are unique within each modal. */
export const FIELD = {
  team: { block: 'team', action: ACTION.teamPicked } as Field,
  channel: field('channel'),
  heading: field('heading'),
  details: field('details'),
} as const;
