/**
 * The start of an OAuth install as a browser goes through it: the landing page at /slack/install
 * (with Bolt's state cookie), and the authorize URL its *Add to Slack* link leads to.
 */
import { request } from 'undici';

export async function beginInstall(appUrl: string) {
  const res = await request(`${appUrl}/slack/install`);
  const page = await res.body.text();
  const href = /id="add-to-slack" href="([^"]+)"/.exec(page)?.[1];
  if (res.statusCode !== 200 || !href) throw new Error(`no install page (HTTP ${res.statusCode})`);
  const authorize = new URL(
    href.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))),
  );
  return {
    status: res.statusCode,
    page,
    authorize,
    state: authorize.searchParams.get('state') ?? '',
    cookie: String(res.headers['set-cookie']).split(';')[0] ?? '',
  };
}
