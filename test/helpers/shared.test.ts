/** The rule for tests that read ../shared: read it; absent → skip with why; absent and required → fail. */
import { describe, expect, it } from 'vitest';
import { decideShared } from './shared.js';

describe('decideShared', () => {
  it('uses the file when it exists, required or not', () => {
    expect(decideShared('/s/contract/openapi.json', true, false)).toEqual({
      use: '/s/contract/openapi.json',
    });
    expect(decideShared('/s/contract/openapi.json', true, true)).toEqual({ use: '/s/contract/openapi.json' });
  });

  it('skips, naming the missing file, when it is absent and not required', () => {
    expect(decideShared('/s/contract/openapi.json', false, false)).toEqual({
      skip: expect.stringContaining('/s/contract/openapi.json is absent'),
    });
  });

  it('fails, naming REQUIRE_SHARED and the file, when it is absent and required', () => {
    expect(decideShared('/s/contract/openapi.json', false, true)).toEqual({
      fail: expect.stringMatching(/^REQUIRE_SHARED=1 but \/s\/contract\/openapi\.json is missing/),
    });
  });
});
