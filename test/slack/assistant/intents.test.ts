/** The questions the assistant recognizes without a model, and the names it reads from them. */
import { describe, expect, it } from 'vitest';
import { intentOf } from '../../../src/slack/assistant/intents.js';

describe('intentOf', () => {
  it.each([
    ["What's waiting for me?", { kind: 'waiting' }],
    ['what are my tasks', { kind: 'waiting' }],
    ['What’s on my plate today?', { kind: 'waiting' }],
    ["What changed in this channel's plan this week?", { kind: 'changes' }],
    ["what's new", { kind: 'changes' }],
    ["Why can't Login page advance?", { kind: 'blocked', feature: 'Login page' }],
    ['why is «Dark mode» stuck', { kind: 'blocked', feature: 'Dark mode' }],
    ['What is blocking Checkout v2?', { kind: 'blocked', feature: 'Checkout v2' }],
    ['Who knows TypeScript?', { kind: 'knows', notion: 'TypeScript' }],
    ['who is an expert in R&amp;D', { kind: 'knows', notion: 'R&D' }],
    ['Draft tasks from this thread', { kind: 'draft' }],
    [
      'Draft tasks from <https://acme.slack.com/archives/C0A1/p1700000000123456|this>',
      {
        kind: 'draft',
        link: {
          url: 'https://acme.slack.com/archives/C0A1/p1700000000123456',
          channel: 'C0A1',
          ts: '1700000000.123456',
        },
      },
    ],
    [
      'turn this into tasks <https://acme.slack.com/archives/C0A1/p1700000000123456?thread_ts=1700000000.000100&amp;cid=C0A1>',
      {
        kind: 'draft',
        link: {
          url: 'https://acme.slack.com/archives/C0A1/p1700000000123456?thread_ts=1700000000.000100&cid=C0A1',
          channel: 'C0A1',
          ts: '1700000000.123456',
          threadTs: '1700000000.000100',
        },
      },
    ],
    ['tell me a joke', { kind: 'unknown' }],
    ['', { kind: 'unknown' }],
    ['who knows', { kind: 'unknown' }],
  ])('%j', (text, intent) => {
    expect(intentOf(text)).toEqual(intent);
  });
});
