/** What the assistant counts as changed this week, and how it finds a feature by a typed name. */
import { describe, expect, it } from 'vitest';
import type { FeatureLite } from '../../../src/planning/index.js';
import { changedSince, featureNamed } from '../../../src/slack/assistant/plan-answers.js';

const feature = (id: string, heading: string, updatedAt?: string): FeatureLite => ({
  id,
  heading,
  stage: 'planning',
  canAdvance: false,
  assumptions: [],
  tasks: [],
  ...(updatedAt ? { updatedAt } : {}),
});

describe('changedSince', () => {
  it('keeps the features stamped since then, newest first; an old, missing or unreadable stamp is not this week', () => {
    const since = Date.parse('2026-11-22T12:00:00Z');
    const features = [
      feature('a', 'Old', '2026-11-20T09:00:00Z'),
      feature('b', 'Monday', '2026-11-23T09:00:00Z'),
      feature('c', 'Friday', '2026-11-27T09:00:00Z'),
      feature('d', 'Never stamped'),
      feature('e', 'Garbled', 'yesterday'),
    ];
    expect(changedSince(features, since).map((f) => f.heading)).toEqual(['Friday', 'Monday']);
  });
});

describe('featureNamed', () => {
  const features = [feature('1', 'Login page'), feature('2', 'Login page v2'), feature('3', 'Dark mode')];
  it('the heading itself, case and spacing aside, even when others contain it', () => {
    expect(featureNamed(features, '  login   PAGE ')).toEqual({ feature: features[0] });
  });
  it('the only heading containing the name', () => {
    expect(featureNamed(features, 'dark')).toEqual({ feature: features[2] });
  });
  it('several containing it: the candidates; none: those sharing a word', () => {
    expect(featureNamed(features, 'login')).toEqual({ candidates: [features[0], features[1]] });
    expect(featureNamed(features, 'the dark theme')).toEqual({ candidates: [features[2]] });
    expect(featureNamed(features, 'checkout')).toEqual({ candidates: [] });
  });
});
