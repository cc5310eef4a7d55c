import { z } from "zod";

/** A function tool in the OpenAI wire format, generated from one of an environment's actions. */
export interface ActionTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/**
 * The tools an LLM agent sees are the environment's own action schemas: every member of the
 * action union whose `type` is not "reply" becomes a function named by that type, taking the other
 * fields. "reply" is the plain-text protocol and needs no tool. So the rules an environment
 * validates and the tools a model is offered can never drift apart.
 */
export function toolsFromActions(actionSchema: z.ZodDiscriminatedUnion): ActionTool[] {
  const tools: ActionTool[] = [];
  for (const option of actionSchema.options) {
    if (!(option instanceof z.ZodObject)) continue;
    const typeField = option.shape.type;
    if (!(typeField instanceof z.ZodLiteral)) continue;
    const name = String(typeField.value);
    if (name === "reply") continue;
    const parameters = z.toJSONSchema(option.omit({ type: true }), { target: "draft-7" }) as Record<
      string,
      unknown
    >;
    delete parameters.$schema;
    tools.push({ type: "function", function: { name, description: option.description ?? name, parameters } });
  }
  return tools;
}

/** The action a tool call stands for: the tool's name is the action's type. */
export function actionFromToolCall(name: string, args: Record<string, unknown>): Record<string, unknown> {
  return { ...args, type: name };
}
