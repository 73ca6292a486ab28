/** The feature card, list and forms as pure builders: Slack's limits hold for any size; evidence fits in 2048. */
import { describe, expect, it } from 'vitest';
import { SLACK_LIMITS } from '../../../src/blockkit/index.js';
import { type Feature, type FeatureLite, TASK_STATES } from '../../../src/planning/models.js';
import { FOCUS_OPTIONS, featureCard, featureCoordsFrom } from '../../../src/slack/features/card.js';
import { appendEvidence } from '../../../src/slack/features/evidence.js';
import { experimentModal } from '../../../src/slack/features/experiments.js';
import { featureModal } from '../../../src/slack/features/feature-form.js';
import { FEATURE_ACTION } from '../../../src/slack/features/ids.js';
import { featureList } from '../../../src/slack/features/list.js';
import { searchResults } from '../../../src/slack/features/search.js';
import { profilesOffered } from '../../helpers/slack-harness.js';

const coords = { teamId: 't'.repeat(24), channelId: 'c'.repeat(24), featureId: 'f'.repeat(24) };
const long = (n: number, c = '<') => c.repeat(n);

function big(stage: Feature['stage'] = 'validation'): Feature {
  return {
    id: coords.featureId,
    heading: long(200),
    details: long(2048, '*'),
    stage,
    canAdvance: false,
    priority: 10,
    focus: 'venustas',
    assumptions: Array.from({ length: 120 }, (_, i) => ({
      id: `a${i}`.padEnd(24, '0'),
      heading: long(200, '&'),
      experiment: {
        state: i % 2 ? 'done' : 'running',
        confirmed: true,
        authorUserIds: ['p1'],
        details: long(2048),
      },
    })),
    tasks: Array.from({ length: 300 }, (_, i) => ({
      id: `t${i}`,
      heading: long(200, '>'),
      state: TASK_STATES[i % 4] ?? 'idle',
      notionIds: [],
    })),
  };
}

function checkLimits(blocks: unknown[], max: number) {
  expect(blocks.length).toBeLessThanOrEqual(max);
  for (const block of blocks as {
    text?: { text: string };
    elements?: { value?: string; text?: { text: string } }[];
  }[]) {
    if (block.text) expect(block.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    for (const e of block.elements ?? []) {
      if (e.value) expect(e.value.length).toBeLessThanOrEqual(SLACK_LIMITS.buttonValue);
    }
  }
}

describe('the feature card', () => {
  it("links to the feature's page in the web app when the view has one, and only then", () => {
    const url = 'https://plan.example.com/t/team1/f/feat1';
    const withLink = JSON.stringify(featureCard({ coords, feature: big(), openUrl: url }).blocks);
    expect(withLink).toContain(`<${url}|Open in Team Planning>`);
    expect(JSON.stringify(featureCard({ coords, feature: big() }).blocks)).not.toContain(
      'Open in Team Planning',
    );
  });

  it('holds Slack’s limits for a huge feature, escapes its text and says why it cannot advance', () => {
    const card = featureCard({ coords, feature: big(), people: { p1: 'U1' } });
    checkLimits(card.blocks, SLACK_LIMITS.messageBlocks);
    const json = JSON.stringify(card.blocks);
    expect(json).not.toContain('<<');
    expect(json).toContain('60 experiments are not done');
    expect(json).toContain('<@U1>');
    expect(card.metadata.event_payload).toEqual(coords);
    expect(featureCoordsFrom(card)).toEqual(coords);
    expect(featureCoordsFrom({ blocks: card.blocks })).toEqual(coords);
  });

  it('offers the planning profile of each person it names, five at most, and counts the rest', () => {
    const feature = big();
    const ids = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'];
    feature.assumptions = feature.assumptions.slice(0, 3).map((a, i) => ({
      ...a,
      experiment: {
        state: 'running',
        confirmed: false,
        authorUserIds: i === 0 ? ['p1', 'p2', 'p3'] : ['p1', 'p4'],
      },
    }));
    // p5..p7 were picked in Slack; p8 took part but nobody here acts as them.
    const participants = { [feature.assumptions[2]?.id as string]: ['p5', 'p6', 'p7', 'p8'] };
    const people = Object.fromEntries(ids.map((id, i) => [id, `U${i + 1}`]));
    const card = featureCard({ coords, feature, people, participants });
    expect(profilesOffered(card.blocks)).toEqual(['U1', 'U2', 'U3', 'U4', 'U5']);
    const json = JSON.stringify(card.blocks);
    expect(json).toContain('<@U1> · 3 experiments');
    expect(json).toContain('<@U2> · 1 experiment');
    expect(json).toContain('…and 2 more people');
    // Nobody named, no profile buttons.
    expect(profilesOffered(featureCard({ coords, feature: big() }).blocks)).toEqual([]);
  });

  it('in deep context: read-only, Delete only, no assumption menus', () => {
    const card = featureCard({ coords, feature: big('deep context') });
    const json = JSON.stringify(card.blocks);
    expect(json).toContain('Read-only');
    expect(json).not.toContain(FEATURE_ACTION.advance);
    expect(json).not.toContain(FEATURE_ACTION.assumptionMenu);
    expect(json).toContain(FEATURE_ACTION.delete);
  });

  it('lists at most 15 features with their buttons, and says how to narrow the rest', () => {
    const features = Array.from({ length: 40 }, (_, i) => ({
      ...big('planning'),
      id: `f${i}`,
    })) as FeatureLite[];
    const list = featureList('Core › general', features, (f) => ({ ...coords, featureId: f.id }));
    checkLimits(list.blocks, SLACK_LIMITS.messageBlocks);
    expect(JSON.stringify(list.blocks)).toContain('…and 25 more');
  });

  it('search results hold the limits', () => {
    const results = searchResults(
      long(500),
      Array.from({ length: 100 }, (_, i) => ({
        ...big('deep context'),
        id: `f${i}`,
        teamId: 't',
        channelId: 'c',
      })),
    );
    checkLimits(results.blocks, SLACK_LIMITS.messageBlocks);
  });
});

describe('forms', () => {
  it('each focus has a one-line meaning that fits an option', () => {
    expect(FOCUS_OPTIONS.map((o) => o.value)).toEqual(['firmitas', 'utilitas', 'venustas']);
    for (const o of FOCUS_OPTIONS) expect(o.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.optionText);
  });

  it('keep what was typed, cut to the contract’s limits', () => {
    const view = featureModal({
      meta: { mode: 'edit', coords },
      heading: long(300),
      details: long(3000),
      priority: 4,
    });
    const json = JSON.stringify(view);
    expect(json).toContain('"value":"4"');
    expect(view.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.modalBlocks);
    const exp = experimentModal({
      meta: { coords, assmId: 'a' },
      state: 'done',
      confirmed: true,
      participants: ['U1'],
    });
    expect(JSON.stringify(exp)).toContain('"initial_users":["U1"]');
  });
});

describe('evidence appended to an experiment’s details', () => {
  const link = 'https://slack.test/archives/C1/p1';

  it('appends after a blank line, or starts the details', () => {
    expect(appendEvidence(undefined, `hello\n\n${link}`)).toBe(`hello\n\n${link}`);
    expect(appendEvidence('before', `hello\n\n${link}`)).toBe(`before\n\nhello\n\n${link}`);
  });

  it('cuts the text, never the link, to stay within 2048; refuses when not even the link fits', () => {
    const out = appendEvidence('x'.repeat(1900), `${'y'.repeat(500)}\n\n${link}`)!;
    expect(Array.from(out).length).toBe(2048);
    expect(out.endsWith(`…\n\n${link}`)).toBe(true);
    expect(appendEvidence('x'.repeat(2040), `y\n\n${link}`)).toBeUndefined();
  });
});
