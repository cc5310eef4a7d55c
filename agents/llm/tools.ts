import type { z } from "zod";
import { toolsOfActions } from "../../environments/kernel/surface.ts";

/** A function tool in the OpenAI wire format, generated from one of an environment's actions. */
export interface ActionTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/**
 * The tools an LLM agent sees are the environment's tool surface (`environments/kernel/surface.ts`),
 * the same one outside agents reach over MCP, in the OpenAI wire format.
 */
export function toolsFromActions(actionSchema: z.ZodDiscriminatedUnion): ActionTool[] {
  return toolsOfActions(actionSchema).map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
}

/** The action a tool call stands for: the tool's name is the action's type. */
export function actionFromToolCall(name: string, args: Record<string, unknown>): Record<string, unknown> {
  return { ...args, type: name };
}
