import { describe, expect, it } from 'vitest';
import { parseWebLink, webLink, webLinkHost } from '../../src/planning/web-links.js';

const TASK = 'https://plan.example.com/app/t/{teamId}/c/{channelId}/f/{featureId}?task={taskId}';
const coords = { teamId: 'tm 1', channelId: 'ch/2', featureId: 'f3', taskId: 'k4' };

describe('web app links', () => {
  it('builds a link from coordinates and reads the same coordinates back from it', () => {
    const url = webLink('task', TASK, coords);
    expect(url).toBe('https://plan.example.com/app/t/tm%201/c/ch%2F2/f/f3?task=k4');
    expect(parseWebLink('task', TASK, url)).toEqual(coords);
  });

  it('reads nothing from a link of another page, host or shape', () => {
    expect(parseWebLink('task', TASK, 'https://plan.example.com/app/t/a/c/b/f/c')).toBeUndefined();
    expect(parseWebLink('task', TASK, 'https://evil.example.com/app/t/a/c/b/f/c?task=d')).toBeUndefined();
    expect(parseWebLink('task', TASK, 'https://plan.example.com/app/t/a/b/c/f/c?task=d')).toBeUndefined();
    expect(
      parseWebLink('task', TASK, 'https://plan.example.com/app/t/%E0%A4%A/c/b/f/c?task=d'),
    ).toBeUndefined();
  });

  it('accepts a trailing slash, and names the host to unfurl', () => {
    const feature = 'https://plan.example.com/t/{teamId}/c/{channelId}/f/{featureId}';
    expect(parseWebLink('feature', feature, 'https://plan.example.com/t/a/c/b/f/c/')).toEqual({
      teamId: 'a',
      channelId: 'b',
      featureId: 'c',
    });
    expect(webLinkHost(TASK)).toBe('plan.example.com');
  });
});
