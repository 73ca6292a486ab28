/**
 * The four Workflow Builder steps. Each finds its planning channel through a linked Slack channel
 * (`/plan link`), acts as the person named in "act as" (run.ts), and does its work through the tasks
 * and features topics — the same create, discovery, card and Advance as their buttons and forms.
 */
import { channelMention, md } from '../../blockkit/index.js';
import type { Feature } from '../../planning/models.js';
import { STAGE_NAMES } from '../../planning/stages.js';
import type { WorkflowStep } from '../bolt/routes.js';
import { advanceAs, postFeatureCard } from '../features/index.js';
import { COMMAND } from '../kit/ids.js';
import type { Services } from '../kit/services.js';
import { createTask, logDiscovery } from '../tasks/index.js';
import { STEP_PARAM, WORKFLOW_STEP } from './ids.js';
import { requiredText, type Step, StepProblem, textInput, userInput, workflowStep } from './run.js';

/**
 * Where a step works: the Slack channel it names (cards go there) and the planning team and channel
 * — chosen in the step by id, or else the ones the Slack channel is linked to. @throws {StepProblem}
 */
async function linkedChannel(svc: Services, step: Step) {
  const channel = textInput(step.inputs, STEP_PARAM.channel);
  if (!channel) throw new StepProblem(md`The step needs the Slack channel linked to a planning channel.`);
  const teamId = textInput(step.inputs, STEP_PARAM.planningTeam);
  const channelId = textInput(step.inputs, STEP_PARAM.planningChannel);
  if (teamId || channelId) {
    if (!teamId || !channelId) {
      throw new StepProblem(
        md`Give both the planning team and the planning channel, or neither (then ${channelMention(channel)}'s link says which).`,
      );
    }
    // Read as the person the step acts as: a team of another organization is not found.
    const { planning } = await step.planning.acting();
    const team = await planning.teams.read(teamId);
    if (!team.channels.some((c) => c.id === channelId)) {
      throw new StepProblem(md`The planning team *${team.teamName ?? teamId}* has no channel ${channelId}.`);
    }
    return { slackChannel: channel, teamId, channelId };
  }
  const link = await svc.deps.store.links.get(step.planning.workspaceId, channel);
  if (!link) {
    throw new StepProblem(
      md`${channelMention(channel)} is not linked to a planning channel: run \`${COMMAND} link\` in it first, or give the planning team and channel.`,
    );
  }
  return { slackChannel: channel, teamId: link.teamId, channelId: link.channelId };
}

/**
 * The feature a step names, by id or by heading (case aside), among the linked planning channel's,
 * read as the person the step acts as. @throws {StepProblem}
 */
async function namedFeature(svc: Services, step: Step) {
  const place = await linkedChannel(svc, step);
  const named = requiredText(step.inputs, STEP_PARAM.feature, 'a feature (its id or heading)');
  const { planning } = await step.planning.acting();
  // Every page of the channel's features: the one named may be past the first 500.
  let byId: Pick<Feature, 'id' | 'heading'> | undefined;
  const byHeading: Pick<Feature, 'id' | 'heading'>[] = [];
  for await (const f of planning.features.list(place.teamId, place.channelId, { pageSize: 500 })) {
    if (f.id === named) {
      byId = f;
      break;
    }
    if (f.heading?.trim().toLowerCase() === named.toLowerCase()) byHeading.push(f);
  }
  const feature = byId ?? byHeading[0];
  if (!feature) {
    throw new StepProblem(
      md`No feature “${named}” in the planning channel linked to ${channelMention(place.slackChannel)}.`,
    );
  }
  if (!byId && byHeading.length > 1) {
    throw new StepProblem(md`Several features are called “${named}” there: give the feature's id instead.`);
  }
  return { ...place, featureId: feature.id, featureHeading: feature.heading };
}

/** A card's permalink, or '' when Slack does not give it (the card is posted: the step succeeds). */
async function permalink(svc: Services, step: Step, card: { channel: string; ts: string } | undefined) {
  if (!card) return '';
  try {
    const answer = await step.client.chat.getPermalink({ channel: card.channel, message_ts: card.ts });
    return answer.permalink ?? '';
  } catch (error) {
    svc.deps.logger.warn({ action: 'workflow step permalink', err: error }, 'no permalink for the card');
    return '';
  }
}

const channelInput = {
  type: 'slack#/types/channel_id',
  title: 'Slack channel',
  description:
    'Where the card goes; linked to a planning channel (/plan link), it says which, unless both below are given',
  required: true,
} as const;
const planningTeamInput = {
  type: 'string',
  title: 'Planning team id',
  description: "The planning team's id, instead of the Slack channel's link (optional; with the channel id)",
} as const;
const planningChannelInput = {
  type: 'string',
  title: 'Planning channel id',
  description: "The planning channel's id in that team (optional; with the team id)",
} as const;
/** The inputs naming where a step works: the Slack channel, and the planning team and channel if chosen. */
const placeInputs = {
  [STEP_PARAM.channel]: channelInput,
  [STEP_PARAM.planningTeam]: planningTeamInput,
  [STEP_PARAM.planningChannel]: planningChannelInput,
};
const featureInput = {
  type: 'string',
  title: 'Feature',
  description: "The feature's id or heading, in the linked planning channel",
  required: true,
} as const;
const actAsInput = {
  type: 'slack#/types/user_id',
  title: 'Act as',
  description:
    "Whose planning account does it: the person who ran the workflow, or someone who turned on “Let workflow steps act for me” on the app's Home",
  required: true,
} as const;
/** Who ran the workflow, from its trigger: the step may act as them without their Home consent. */
const ranByInput = {
  type: 'slack#/types/interactivity',
  title: 'Who ran it',
  description: "The workflow's interactivity: the person who ran it (from the trigger)",
} as const;
const permalinkOutput = {
  type: 'string',
  title: 'Card link',
  description: 'The permalink of the card posted in the linked channel (empty if Slack did not give one)',
} as const;

export const WORKFLOW_STEPS: Readonly<Record<string, WorkflowStep<Services>>> = {
  [WORKFLOW_STEP.createTask]: {
    title: 'Create a task',
    description: 'Creates a task on a feature and posts its card in the linked channel',
    inputs: {
      ...placeInputs,
      [STEP_PARAM.feature]: featureInput,
      [STEP_PARAM.heading]: {
        type: 'string',
        title: 'Heading',
        description: "The task's heading",
        required: true,
      },
      [STEP_PARAM.details]: {
        type: 'string',
        title: 'Details',
        description: "The task's details (optional)",
      },
      [STEP_PARAM.assignee]: {
        type: 'slack#/types/user_id',
        title: 'Assignee',
        description: 'Who does it (optional)',
      },
      [STEP_PARAM.actAs]: actAsInput,
      [STEP_PARAM.interactivity]: ranByInput,
    },
    outputs: {
      [STEP_PARAM.taskId]: { type: 'string', title: 'Task id', description: "The new task's id" },
      [STEP_PARAM.permalink]: permalinkOutput,
    },
    run: workflowStep('workflow create task', async (svc, step) => {
      const feature = await namedFeature(svc, step);
      const details = textInput(step.inputs, STEP_PARAM.details);
      const assignee = userInput(step.inputs, STEP_PARAM.assignee);
      const created = await createTask(
        svc,
        step.planning,
        step.client,
        {
          ...feature,
          heading: requiredText(step.inputs, STEP_PARAM.heading, 'a heading for the task'),
          ...(details ? { details } : {}),
          ...(assignee ? { assignee } : {}),
        },
        { channel: feature.slackChannel },
      );
      // The task exists: what did not work after it (its assignment, its card) is logged, and the
      // step gives what it has.
      for (const note of created.notes) {
        svc.deps.logger.warn(
          { action: 'workflow create task', note: note.text },
          'task created with a problem',
        );
      }
      return {
        [STEP_PARAM.taskId]: created.coords.taskId,
        [STEP_PARAM.permalink]: await permalink(svc, step, created.card),
      };
    }),
  },

  [WORKFLOW_STEP.logDiscovery]: {
    title: 'Log a discovery on a task',
    description: "Records a discovery in a task's minutes and confirms it in the task card's thread",
    inputs: {
      ...placeInputs,
      [STEP_PARAM.feature]: featureInput,
      [STEP_PARAM.taskId]: {
        type: 'string',
        title: 'Task id',
        description: "The task's id (e.g. from a Create a task step)",
        required: true,
      },
      [STEP_PARAM.discovery]: {
        type: 'string',
        title: 'Discovery',
        description: 'What was discovered',
        required: true,
      },
      [STEP_PARAM.actAs]: actAsInput,
      [STEP_PARAM.interactivity]: ranByInput,
    },
    outputs: {},
    run: workflowStep('workflow log discovery', async (svc, step) => {
      const feature = await namedFeature(svc, step);
      const taskId = requiredText(step.inputs, STEP_PARAM.taskId, "the task's id");
      const text = requiredText(step.inputs, STEP_PARAM.discovery, 'the discovery to log');
      await logDiscovery(
        svc,
        step.planning,
        step.client,
        { teamId: feature.teamId, channelId: feature.channelId, featureId: feature.featureId, taskId },
        text,
      );
      return {};
    }),
  },

  [WORKFLOW_STEP.postFeatureStatus]: {
    title: "Post a feature's status",
    description: "Posts the feature's live card (stage, assumptions, tasks) in the linked channel",
    inputs: {
      ...placeInputs,
      [STEP_PARAM.feature]: featureInput,
      [STEP_PARAM.actAs]: actAsInput,
      [STEP_PARAM.interactivity]: ranByInput,
    },
    outputs: { [STEP_PARAM.permalink]: permalinkOutput },
    run: workflowStep('workflow feature status', async (svc, step) => {
      const { slackChannel, teamId, channelId, featureId } = await namedFeature(svc, step);
      const { ts } = await postFeatureCard(
        svc,
        step.planning,
        step.client,
        { teamId, channelId, featureId },
        slackChannel,
      );
      return { [STEP_PARAM.permalink]: await permalink(svc, step, { channel: slackChannel, ts }) };
    }),
  },

  [WORKFLOW_STEP.advanceFeature]: {
    title: 'Advance a feature',
    description: 'Moves the feature to its next stage, once, as its Advance button does',
    inputs: {
      ...placeInputs,
      [STEP_PARAM.feature]: featureInput,
      [STEP_PARAM.actAs]: actAsInput,
      [STEP_PARAM.interactivity]: ranByInput,
    },
    outputs: { [STEP_PARAM.stage]: { type: 'string', title: 'Stage', description: 'The stage it moved to' } },
    run: workflowStep('workflow advance feature', async (svc, step) => {
      const { teamId, channelId, featureId } = await namedFeature(svc, step);
      const result = await advanceAs(svc, step.planning, step.client, { teamId, channelId, featureId });
      if ('said' in result) throw new StepProblem(result.said);
      return { [STEP_PARAM.stage]: STAGE_NAMES[result.advanced.stage] };
    }),
  },
};
