/**
 * The app's Slack Web API methods, each with how it may be sent again after a failure on the way —
 * the one table the sender (sender.ts) reads. A method missing from it is sent as `once`: the safe
 * choice for a call nobody has thought about.
 */

/** How a Web API call may be sent again after it failed in a way that may have reached Slack. */
export type SendPolicy =
  /**
   * Reads, and changes that come out the same however often they are made (new content for a
   * message or view, a reaction, a DM opened): sent again, with backoff, after a 5xx, a reset or a
   * timeout.
   */
  | 'repeatable'
  /**
   * A new message: never sent again once it may have reached Slack. The channel (or thread) is read
   * for it first; found, it is the answer; not found, the caller is told it is unconfirmed.
   */
  | 'post'
  /**
   * Anything else that must not happen twice (an ephemeral message, a modal opened, a step
   * completed, an OAuth code spent, a response_url reply): never sent again once it may have
   * reached Slack; the caller is told it is unconfirmed.
   */
  | 'once';

/** Every method the app calls, by what a second send would do. `response_url` stands for replies at one. */
export const METHOD_POLICY: Readonly<Record<string, SendPolicy>> = {
  'auth.test': 'repeatable',
  'team.info': 'repeatable',
  'users.info': 'repeatable',
  'users.list': 'repeatable',
  'users.profile.get': 'repeatable',
  'conversations.info': 'repeatable',
  'conversations.history': 'repeatable',
  'conversations.replies': 'repeatable',
  'conversations.members': 'repeatable',
  // Opening a DM that is open already answers the same channel; joining a channel joined is a no-op.
  'conversations.open': 'repeatable',
  'conversations.join': 'repeatable',
  'chat.getPermalink': 'repeatable',
  // The same content again: the message shows it once either way.
  'chat.update': 'repeatable',
  'chat.delete': 'repeatable',
  'chat.unfurl': 'repeatable',
  'views.update': 'repeatable',
  'views.publish': 'repeatable',
  'reactions.add': 'repeatable',
  'entity.presentDetails': 'repeatable',
  // A second URL for an upload is never used: nothing is shared by asking for it.
  'files.getUploadURLExternal': 'repeatable',
  'apps.connections.open': 'repeatable',
  // A canvas section found again: a read.
  'canvases.sections.lookup': 'repeatable',
  // A canvas deleted twice is deleted.
  'canvases.delete': 'repeatable',
  // A canvas made, or an edit (an insert would land twice): never sent again once it may have landed;
  // the keeper edits it whole next time (src/slack/canvas/).
  'conversations.canvases.create': 'once',
  'canvases.create': 'once',
  'canvases.edit': 'once',
  // An assistant thread's status, prompts and title: set again, they show the same.
  'assistant.threads.setStatus': 'repeatable',
  'assistant.threads.setSuggestedPrompts': 'repeatable',
  'assistant.threads.setTitle': 'repeatable',
  // A streamed reply: a new message, and pieces appended to it — neither may be sent twice.
  'chat.startStream': 'once',
  'chat.appendStream': 'once',
  'chat.stopStream': 'once',
  'chat.postMessage': 'post',
  'chat.postEphemeral': 'once',
  'views.open': 'once',
  'views.push': 'once',
  'files.completeUploadExternal': 'once',
  'functions.completeSuccess': 'once',
  'functions.completeError': 'once',
  'oauth.v2.access': 'once',
  response_url: 'once',
};

export function policyOf(method: string): SendPolicy {
  return METHOD_POLICY[method] ?? 'once';
}

/**
 * The methods that post a message: Slack limits them per channel and per workspace (the posting
 * limiter). A canvas edit takes its turn there too: it names no channel, so a workspace's canvas
 * edits share one queue spaced by the channel interval (one a second: within `canvases.edit`'s Tier 3),
 * and a 429 on one pauses the workspace's posts as any other.
 */
export const POSTING_METHODS: ReadonlySet<string> = new Set([
  'chat.postMessage',
  'chat.update',
  'canvases.edit',
]);
