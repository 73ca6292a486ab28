/**
 * Walking the README's "Try it" and "Using it" in the playground, as each of the demo's roles:
 * the people (owner, admin, member, guest), the one sentence a guest is refused with, and the moves
 * every walk makes — a command typed in the composer and its private answer, a shortcut from the ⋮ or
 * ⚡ menu, the app's Home tab and DM — each waiting on what the page shows, never on time.
 */
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { openPlaygroundPage, type PlaygroundPage } from './playground-page.js';

export interface Person {
  id: string;
  name: string;
  /** Their role in the demo organization, as `/plan whoami` says it ("as owner"). */
  planningRole?: 'owner' | 'admin' | 'member';
  /** A channel of theirs that is linked (the guest is only in #general and #product). */
  channel: string;
}

/** The demo's four kinds of people (src/playground/workspace.ts, src/sandbox/demo-seed.ts). */
export type Role = 'owner' | 'admin' | 'member' | 'guest';
export const ROLES: Record<Role, Person> = {
  owner: { id: 'U0ADA', name: 'Ada Lovelace', planningRole: 'owner', channel: 'api' },
  admin: { id: 'U0GRACE', name: 'Grace Hopper', planningRole: 'admin', channel: 'api' },
  member: { id: 'U0MARGARET', name: 'Margaret Hamilton', planningRole: 'member', channel: 'api' },
  guest: { id: 'U0GUEST', name: 'Gus Guest', channel: 'product' },
};
export const EVERY_ROLE: Role[] = ['owner', 'admin', 'member', 'guest'];
/** Everyone who acts with a planning account of their own. */
export const CONNECTED_ROLES: Role[] = ['owner', 'admin', 'member'];

/** What a guest is told by everything that needs a planning account (src/slack/kit/failures.ts). */
export const GUEST_REFUSAL =
  'Only full members of this workspace get a planning account from the app or can use one here, and you are a guest in this workspace.';

/** What someone who may not delete a task is told when they press its card's Delete (src/slack/tasks/state.ts). */
export const MAY_NOT_DELETE =
  "Only the task's author or an organization owner or admin can delete it; nothing was deleted.";

/**
 * The buttons under the line showing `line` in a list drawn as a section then its actions block (the
 * admin's lists, for one): the first actions block after it.
 */
export function rowActions(view: Locator, line: string | RegExp): Locator {
  return view
    .locator('.block', { has: view.page().locator('.section', { hasText: line }) })
    .first()
    .locator(
      'xpath=following-sibling::div[contains(@class, "block")][.//div[contains(@class, "actions")]][1]',
    );
}

export interface Walk {
  ui: PlaygroundPage;
  /** Switches to the person of `role` and opens `channel` (their own linked channel by default). */
  as(role: Role, channel?: string): Promise<void>;
  /**
   * Types `line` in the composer and returns the private answer showing `shows` — a new one, not
   * an earlier answer with the same words.
   */
  command(line: string, shows: string | RegExp): Promise<Locator>;
  /** Types `line` in the composer; the caller waits for what it opens. */
  type(line: string): Promise<void>;
  /** The newest private answer in the channel that shows `shows`, once there is a new one. */
  nextEphemeral(shows: string | RegExp, before: number): Promise<Locator>;
  ephemeralCount(shows: string | RegExp): Promise<number>;
  /** Opens `shortcut` from the ⋮ More actions menu of the message showing `messageText`. */
  messageShortcut(message: Locator, shortcut: string | RegExp): Promise<void>;
  /** Opens `shortcut` from the ⚡ menu. */
  globalShortcut(shortcut: string | RegExp): Promise<void>;
  /** The app's Home tab, once it shows what it read (or the one line a guest gets). */
  openHome(shows?: string | RegExp): Promise<Locator>;
  /** The person's DM with the app. */
  openDm(): Promise<void>;
  /** From the open Administration modal, pushes `section` (a regular expression's source); the view pushed. */
  adminSection(section: string): Promise<Locator>;
  /** Closes every open modal with its ✕, as a person would. */
  closeModals(): Promise<void>;
  /** Closes `dialog` with its Close/Cancel/Done button and waits for it to go. */
  closeModal(dialog: Locator): Promise<void>;
}

const HEAD = '#modal-root .overlay .modal-head';
const CLOSE_BUTTONS = `${HEAD} button[aria-label="Close"]`;

export function readmeWalk(ui: PlaygroundPage): Walk {
  const { page } = ui;
  const ephemerals = (shows: string | RegExp) => page.locator('#messages .msg.ephemeral', { hasText: shows });
  const walk: Walk = {
    ui,
    async as(role, channel) {
      await walk.closeModals();
      await ui.actAs(ROLES[role].id);
      await ui.openChannel(channel ?? ROLES[role].channel);
    },
    async type(line) {
      await page.locator('#composer-text').fill(line);
      await page.locator('#composer-text').press('Enter');
    },
    ephemeralCount: (shows) => ephemerals(shows).count(),
    async nextEphemeral(shows, before) {
      const answer = ephemerals(shows).nth(before);
      try {
        await answer.waitFor();
      } catch (error) {
        // Say what the page showed instead: the newest private answer.
        const last = page.locator('#messages .msg.ephemeral').last();
        const shown = (await last.count()) > 0 ? await ui.text(last) : 'no private answer';
        throw new Error(
          `waited for a new private answer showing ${String(shows)}; the newest was: ${shown}`,
          {
            cause: error,
          },
        );
      }
      return answer;
    },
    async command(line, shows) {
      const before = await ephemerals(shows).count();
      await walk.type(line);
      return walk.nextEphemeral(shows, before);
    },
    async messageShortcut(message, shortcut) {
      await message.hover();
      await message.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: shortcut }).click();
    },
    async globalShortcut(shortcut) {
      await page.locator('#lightning').click();
      await page.getByRole('menuitem', { name: shortcut }).click();
    },
    async openHome(shows = 'Notifications') {
      // Drawn anew: until then the tab shown is the one drawn before, perhaps another person's.
      await ui.redrawn('#home', async () => {
        await page.locator('#apps a', { hasText: 'Team Planning' }).click();
        await page.locator('#app-tabs button', { hasText: 'Home' }).click();
      });
      const home = page.locator('#home');
      await home.getByText(shows).first().waitFor();
      return home;
    },
    async openDm() {
      // Drawn anew: until then the messages shown are the conversation's open before.
      await ui.redrawn('#messages', async () => {
        await page.locator('#apps a', { hasText: 'Team Planning' }).click();
        await page.locator('#app-tabs button', { hasText: 'Messages' }).click();
      });
    },
    async closeModals() {
      // ✕ closes the view on top: the one under it (another title or depth) or nothing is left.
      const close = page.locator(CLOSE_BUTTONS);
      const head = page.locator('#modal-root .overlay .modal-head');
      while ((await close.count()) > 0) {
        const shown = await head.first().evaluate((el) => el.textContent ?? '');
        await close.first().click();
        // A string, run in the page: the test's own types know no DOM.
        await page.waitForFunction(
          `(document.querySelector(${JSON.stringify(HEAD)})?.textContent ?? '') !== ${JSON.stringify(shown)}`,
        );
      }
    },
    async adminSection(section) {
      await ui
        .modal('Administration')
        .locator('.section', { hasText: new RegExp(section) })
        .getByRole('button', { name: 'Open' })
        .click();
      await page.locator('.modal-head .stack-note', { hasText: '2 views deep' }).waitFor();
      return page.getByRole('dialog').last();
    },
    async closeModal(dialog) {
      await dialog
        .getByRole('button', { name: /Close|Done|Cancel/ })
        .first()
        .click();
      await dialog.waitFor({ state: 'detached' });
    },
  };
  return walk;
}

/**
 * One playground page for a file of walks: opened before them (`opened` is given it and its walk),
 * modals left open by a failed walk closed before each, and closed after — an error the page threw
 * on the way failing the file.
 */
export function walkOnePage(opened: (ui: PlaygroundPage, walk: Walk) => void) {
  let ui: PlaygroundPage | undefined;
  let walk: Walk | undefined;
  beforeAll(async () => {
    ui = await openPlaygroundPage();
    walk = readmeWalk(ui);
    opened(ui, walk);
  }, 60_000);
  beforeEach(async () => {
    await walk?.closeModals();
  });
  afterAll(async () => {
    const errors = ui?.pageErrors ?? [];
    await ui?.close();
    expect(errors).toEqual([]);
  });
}
