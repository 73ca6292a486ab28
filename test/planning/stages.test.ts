import { describe, expect, it } from 'vitest';
import { nextStage, type StagedFeature, whyNotAdvance } from '../../src/planning/stages.js';

const feature = (over: Partial<StagedFeature>): StagedFeature => ({
  stage: 'planning',
  assumptions: [],
  tasks: [],
  ...over,
});
const exp = (state: string) => ({ experiment: { state } });

describe('why a feature cannot advance (the service’s rules)', () => {
  it('planning needs at least one assumption', () => {
    expect(whyNotAdvance(feature({}))?.text).toBe('add at least one assumption');
    expect(whyNotAdvance(feature({ assumptions: [exp('idle')] }))).toBeNull();
  });

  it('validation needs every experiment done, and counts the others', () => {
    const one = whyNotAdvance(feature({ stage: 'validation', assumptions: [exp('done'), exp('running')] }));
    expect(one).toEqual({ rule: 'experiments', count: 1, text: '1 experiment is not done' });
    const two = whyNotAdvance(feature({ stage: 'validation', assumptions: [exp('idle'), {}, exp('done')] }));
    expect(two?.text).toBe('2 experiments are not done');
    expect(whyNotAdvance(feature({ stage: 'validation', assumptions: [exp('done')] }))).toBeNull();
  });

  it('execution needs every task done', () => {
    const tasks = [{ state: 'idle' }, { state: 'in review' }, { state: 'in progress' }, { state: 'done' }];
    expect(whyNotAdvance(feature({ stage: 'execution', tasks }))?.text).toBe('3 tasks are not done');
    expect(whyNotAdvance(feature({ stage: 'execution', tasks: [{ state: 'done' }] }))).toBeNull();
    expect(whyNotAdvance(feature({ stage: 'execution' }))).toBeNull();
  });

  it('deep context is read-only and the last stage', () => {
    expect(whyNotAdvance(feature({ stage: 'deep context', assumptions: [exp('done')] }))?.text).toBe(
      'read-only in deep context',
    );
    expect(nextStage('execution')).toBe('deep context');
    expect(nextStage('deep context')).toBeUndefined();
  });
});
