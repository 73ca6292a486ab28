/**
 * What other topics and the composition use of the Home tab: refreshing or forgetting a person's
 * tab, and the reads a person's planning profile shares with it (people topic).
 */
export { activityBlocks, waitingBlocks } from './blocks.js';
export { forgetHome, refreshHome } from './publish.js';
export {
  type ActivityLine,
  activityPeople,
  describeAccount,
  type ExperienceRow,
  experienceRows,
  gatherParts,
  type HomeFeature,
  type HomeTask,
  linkedPlanning,
  onePerPlanningChannel,
  type Part,
  type PendingFeedback,
  type Planning,
  pendingFeedback,
} from './snapshot.js';
