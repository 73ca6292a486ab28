/**
 * The planning assistant's model: an OpenAI-compatible chat-completions endpoint the deployment
 * provides, asked through the `openai` library. It knows HTTP, never Slack: it is given the
 * conversation and the tools (each a function of the caller's, which reads as the asking person),
 * streams the answer's text to `onText`, and runs the tool calls the model asks for — within a time,
 * a number of tool calls and a number of tokens. The model never writes anything anywhere itself:
 * its only reach is the tools it is given. Nothing it is sent or answers is logged here.
 */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';

export interface ModelSettings {
  /** The endpoint's base URL (`…/v1`); `/chat/completions` is asked under it. */
  url: string;
  model: string;
  key?: string;
}

export interface ModelLimits {
  /** The whole answer, tool calls included, ms. */
  timeoutMs: number;
  /** Tool calls at most, over the whole answer. */
  maxToolCalls: number;
  /** Tokens the model may write per request. */
  maxTokens: number;
}

export const DEFAULT_MODEL_LIMITS: ModelLimits = { timeoutMs: 30_000, maxToolCalls: 6, maxTokens: 800 };

/** A tool the model may call: its name, what it does, its JSON-schema parameters, and its run. */
export interface ModelTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** Answers the call (text the model reads); `args` are as the model sent them, unchecked. */
  run(args: unknown): Promise<string>;
}

/** How an answer ended. */
export type ModelOutcome =
  | { kind: 'answered'; text: string }
  | { kind: 'refused'; text: string }
  | { kind: 'failed'; reason: 'timeout' | 'unavailable' | 'too-many-tool-calls' | 'empty' };

export interface ModelClient {
  answer(options: {
    system: string;
    question: string;
    tools: readonly ModelTool[];
    /** Each piece of the answer's text as it arrives. */
    onText(piece: string): Promise<void>;
  }): Promise<ModelOutcome>;
}

export function createModelClient(
  settings: ModelSettings,
  limits: ModelLimits = DEFAULT_MODEL_LIMITS,
): ModelClient {
  const openai = new OpenAI({
    baseURL: settings.url,
    // An endpoint that wants no key (a local model) is sent a placeholder the library insists on.
    apiKey: settings.key ?? 'none',
    maxRetries: 0,
    timeout: limits.timeoutMs,
  });
  return {
    async answer({ system, question, tools, onText }) {
      const signal = AbortSignal.timeout(limits.timeoutMs);
      const messages: ChatCompletionMessageParam[] = [
        { role: 'system', content: system },
        { role: 'user', content: question },
      ];
      const declared: ChatCompletionTool[] = tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
      let toolCalls = 0;
      let text = '';
      try {
        for (;;) {
          const stream = await openai.chat.completions.create(
            {
              model: settings.model,
              messages,
              ...(declared.length ? { tools: declared } : {}),
              max_tokens: limits.maxTokens,
              stream: true,
            },
            { signal },
          );
          const calls: { id: string; name: string; args: string }[] = [];
          let refusal = '';
          let finish: string | null = null;
          for await (const chunk of stream) {
            const choice = chunk.choices[0];
            if (!choice) continue;
            const delta = choice.delta;
            if (delta?.content) {
              text += delta.content;
              await onText(delta.content);
            }
            if (delta?.refusal) refusal += delta.refusal;
            for (const call of delta?.tool_calls ?? []) {
              calls[call.index] ??= { id: '', name: '', args: '' };
              const at = calls[call.index]!;
              if (call.id) at.id = call.id;
              if (call.function?.name) at.name += call.function.name;
              if (call.function?.arguments) at.args += call.function.arguments;
            }
            if (choice.finish_reason) finish = choice.finish_reason;
          }
          if (refusal || finish === 'content_filter') return { kind: 'refused', text: refusal };
          if (calls.length === 0) {
            return text.trim() ? { kind: 'answered', text } : { kind: 'failed', reason: 'empty' };
          }
          toolCalls += calls.length;
          if (toolCalls > limits.maxToolCalls) return { kind: 'failed', reason: 'too-many-tool-calls' };
          messages.push({
            role: 'assistant',
            content: text || null,
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: c.args },
            })),
          });
          for (const c of calls) {
            const tool = tools.find((t) => t.name === c.name);
            let result: string;
            if (!tool) result = `There is no tool named ${c.name}.`;
            else {
              let args: unknown = {};
              try {
                args = c.args ? JSON.parse(c.args) : {};
              } catch {
                args = {};
              }
              result = await tool.run(args);
            }
            messages.push({ role: 'tool', tool_call_id: c.id, content: result });
          }
        }
      } catch (error) {
        if (signal.aborted) return { kind: 'failed', reason: 'timeout' };
        if (error instanceof OpenAI.APIError || error instanceof OpenAI.APIConnectionError) {
          return { kind: 'failed', reason: 'unavailable' };
        }
        throw error;
      }
    },
  };
}
