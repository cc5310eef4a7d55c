/**
 * One exchange with an A2A agent: bazaar sends a message and waits until the agent has something to
 * say — a question for its user (an `input-required` status, or a reply message outside any task),
 * or its task's end (`completed`, `failed`, `rejected`, `canceled`). Agents whose card says they
 * stream are read through `message/stream` (SendStreamingMessage); the others through a blocking
 * `message/send`, and `tasks/get` while the task is still working (an agent may answer before its
 * task is settled). Meanwhile the agent plays the episode through its MCP endpoint; the exchange only
 * carries the conversation.
 *
 * A reply that is not A2A (a task without a status, a state the protocol does not have, a stream that
 * ends with nothing) is thrown as `NotA2a`: the agent's server failed, not its answer.
 */
import type { Message, Task, TaskState, TaskStatus } from "@a2a-js/sdk";
import type { A2aAgent } from "./a2a-card.ts";
import { artifactText, STATES, stateName, textOf } from "./a2a-messages.ts";

/** What the agent said at the end of an exchange. */
export type Answer =
  /**
   * Words for its user, and the task (if any) waiting for the reply; `status` tells this question
   * apart from the next (`exchange`'s `answered`).
   */
  | { kind: "said"; text: string; taskId: string; contextId: string; status?: string }
  /** Its task ended (or waits for authentication, which bazaar cannot give mid-run). */
  | { kind: "ended"; state: string; text: string; taskId: string; contextId: string };

export class NotA2a extends Error {
  override readonly name = "NotA2a";
}

/** Polling `tasks/get` while a task works: first after this long, then up to `POLL_MAX_MS` apart. */
const POLL_FIRST_MS = 50;
const POLL_MAX_MS = 1_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}

/** The latest of a task as the exchange saw it. */
interface Seen {
  taskId: string;
  contextId: string;
  state: TaskState | null;
  status: Message | undefined;
  /** What tells this status apart from another (`statusKey`). */
  key: string;
  artifacts: string[];
}

/**
 * A status as one question: its state, its message's id, its time and words. An agent answering a
 * reply first shows its task as it was — still `input-required` with the question bazaar has just
 * answered (the SDK has every turn open with the task) — so a status already answered is not a new
 * question.
 */
function statusKey(status: TaskStatus): string {
  return JSON.stringify([
    status.state,
    status.message?.messageId ?? "",
    status.timestamp ?? "",
    textOf(status.message),
  ]);
}

function fromStatus(seen: Seen, status: TaskStatus): void {
  seen.state = status.state;
  seen.status = status.message;
  seen.key = statusKey(status);
}

function fromTask(seen: Seen, task: Task): void {
  seen.taskId = task.id || seen.taskId;
  seen.contextId = task.contextId || seen.contextId;
  if (!task.status) throw new NotA2a(`a task without a status (task ${task.id || "without an id"})`);
  fromStatus(seen, task.status);
  const words = artifactText(task);
  if (words) seen.artifacts = [words];
}

function answerOf(seen: Seen, answered: string | undefined): Answer | null {
  const state = seen.state;
  if (state === null) return null;
  // The question just answered, shown again before the agent has read the reply: still working.
  if (answered !== undefined && seen.key === answered) return null;
  const ids = { taskId: seen.taskId, contextId: seen.contextId };
  if (state === STATES.input) return { kind: "said", text: textOf(seen.status), ...ids, status: seen.key };
  if (STATES.ended.has(state) || state === STATES.auth) {
    const text = textOf(seen.status) || seen.artifacts.join("\n");
    return { kind: "ended", state: stateName(state), text, ...ids };
  }
  if (STATES.working.has(state)) return null;
  throw new NotA2a(`a task in a state A2A does not have: ${stateName(state)}`);
}

/**
 * Sends `message` and returns the agent's answer; throws the transport's errors and `NotA2a`.
 * `answered`: the status (`Answer.status`) whose question `message` replies to.
 */
export async function exchange(
  agent: A2aAgent,
  message: Message,
  signal: AbortSignal,
  answered?: string,
): Promise<Answer> {
  const request = {
    tenant: "",
    message,
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      // The task's history is bazaar's own conversation: not sent back on every answer.
      historyLength: 0,
      returnImmediately: false,
    },
    metadata: undefined,
  };
  const seen: Seen = {
    taskId: message.taskId,
    contextId: message.contextId,
    state: null,
    status: undefined,
    key: "",
    artifacts: [],
  };
  if (agent.streaming) {
    let events = 0;
    for await (const event of agent.client.sendMessageStream(request, { signal })) {
      events++;
      const p = event.payload;
      if (!p) throw new NotA2a("a stream event without a payload");
      if (p.$case === "message")
        return {
          kind: "said",
          text: textOf(p.value),
          taskId: seen.taskId,
          contextId: p.value.contextId || seen.contextId,
        };
      if (p.$case === "task") fromTask(seen, p.value);
      else if (p.$case === "statusUpdate") {
        if (!p.value.status) throw new NotA2a("a status update without a status");
        seen.taskId = p.value.taskId || seen.taskId;
        seen.contextId = p.value.contextId || seen.contextId;
        fromStatus(seen, p.value.status);
      } else if (p.$case === "artifactUpdate") {
        const words = p.value.artifact ? artifactText({ artifacts: [p.value.artifact] }) : "";
        if (words) seen.artifacts.push(words);
      }
      // The stream goes on after an interrupted or final state only if the agent misbehaves.
      const answer = answerOf(seen, answered);
      if (answer) return answer;
    }
    if (events === 0) throw new NotA2a("a stream that ended without an event");
  } else {
    const result = await agent.client.sendMessage(request, { signal });
    if ("messageId" in result && "parts" in result)
      return {
        kind: "said",
        text: textOf(result),
        taskId: seen.taskId,
        contextId: result.contextId || seen.contextId,
      };
    fromTask(seen, result as Task);
    const answer = answerOf(seen, answered);
    if (answer) return answer;
  }
  // Still working: ask after the task until it is settled.
  if (!seen.taskId) throw new NotA2a("the agent's task is working, but it has no id to ask after");
  let wait = POLL_FIRST_MS;
  for (;;) {
    await sleep(wait, signal);
    wait = Math.min(POLL_MAX_MS, Math.round(wait * 1.5));
    fromTask(seen, await agent.client.getTask({ tenant: "", id: seen.taskId, historyLength: 0 }, { signal }));
    const answer = answerOf(seen, answered);
    if (answer) return answer;
  }
}
