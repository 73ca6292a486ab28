/**
 * An installation whose token Slack refused to refresh (bolt/rotation.ts) stops working once the
 * token expires. Whoever uses the app meanwhile — and the workspace admin, who alone can fix it —
 * is told at the request's response_url, so the app never just falls silent.
 */
import type { AnyMiddlewareArgs, Middleware, RespondFn } from '@slack/bolt';
import { formatISO } from 'date-fns';
import { installationKeyFor } from '../../store/index.js';
import type { Lapse } from '../bolt/rotation.js';

/** What the person reads; says what happened, who can fix it and how. */
export function lapsedText(lapse: Lapse): string {
  return (
    `Team Planning needs to be reinstalled: on ${formatISO(lapse.at, { representation: 'date' })} ` +
    `Slack refused to renew its access (\`${lapse.reason}\`), so it stops working here when its ` +
    'current access expires. A workspace admin can reinstall it from the app’s install page ' +
    '(`/slack/install` on the app’s address); links, connected accounts and settings are kept.'
  );
}

/** A global middleware: after the request's own work, the lapse notice at its response_url. */
export function lapsedInstallNotice(lapsed: (installationKey: string) => Promise<Lapse | undefined>) {
  const middleware: Middleware<AnyMiddlewareArgs> = async (args) => {
    await args.next();
    const { context } = args;
    if (!context.teamId && !context.enterpriseId) return;
    const respond = (args as { respond?: RespondFn }).respond;
    if (!respond) return;
    // After the request's own work and its ack: a refresh running meanwhile may have just lapsed.
    const lapse = await lapsed(installationKeyFor(context));
    if (!lapse) return;
    await respond({ response_type: 'ephemeral', replace_original: false, text: lapsedText(lapse) });
  };
  return middleware;
}
