/**
 * What a model family accepts: settings a reasoning model rejects are not sent (and said so), the
 * answer cap goes where the model takes it, user rules come first, and a bad rules file is named.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadModelRules, modelParams, withAnswerDefaults } from "../../../agents/llm/model-params.ts";
import { type LlmSettingsInput, LlmSettingsSchema } from "../../../agents/llm/settings.ts";
import { acceptedSettings } from "../../../agents/registry.ts";
import { CHOICE_ANSWER } from "../../../environments/choice/answer.ts";
import { SHOP_ANSWER } from "../../../environments/shop/answer.ts";
import { tempDir } from "../../helpers/cli.ts";

const settings = (model: string, extra: Record<string, unknown> = {}) =>
  LlmSettingsSchema.parse({ model, temperature: 0.7, topP: 0.9, maxTokens: 50, ...extra });

describe("model-family parameters", () => {
  it("o-series and GPT-5 models: no temperature or top_p, the cap as max_completion_tokens", () => {
    for (const model of ["o3-mini", "o1", "gpt-5", "gpt-5.4-nano"]) {
      const p = modelParams("openai:" + model, settings(model));
      expect(p.settings).toMatchObject({
        temperature: undefined,
        topP: undefined,
        maxTokens: 50,
        maxTokensField: "max_completion_tokens",
      });
      expect(p.dropped).toEqual(["temperature", "topP"]);
      expect(p.note).toMatch(
        new RegExp(
          `^openai:${model.replace(".", "\\.")}: temperature and top_p not sent to ${model.replace(".", "\\.")} — OpenAI's`,
        ),
      );
    }
  });

  it("other models keep every setting, and nothing is said", () => {
    for (const model of ["gpt-4o-mini", "gpt-5-chat-latest", "qwen2.5-7b-instruct", "sim-steep"]) {
      const p = modelParams("a", settings(model));
      expect(p.dropped).toEqual([]);
      expect(p.note).toBeNull();
      expect(p.settings).toEqual(settings(model));
    }
  });

  it("says nothing when the dropped setting was not asked for", () => {
    const p = modelParams("a", LlmSettingsSchema.parse({ model: "o3" }));
    expect(p.dropped).toEqual([]);
    expect(p.note).toBeNull();
    expect(p.settings.maxTokensField).toBe("max_completion_tokens");
  });

  it("user rules come before the built-in ones; a dropped seed stops the per-replicate seed", () => {
    const rules = [{ name: "mine", match: "^o3", drop: ["seed" as const], why: "my proxy refuses seeds" }];
    const p = modelParams("a", settings("o3-mini", { seed: 4 }), rules);
    expect(p.rule).toBe("mine");
    expect(p.settings).toMatchObject({ temperature: 0.7, seed: undefined, sendSeed: false });
    expect(p.note).toMatch(/seed not sent to o3-mini — my proxy refuses seeds \(rule mine/);
  });

  it("the identity records what was not sent, and stays as it was when nothing is dropped", () => {
    const notes = new Set<string>();
    const o3 = acceptedSettings("openai:o3", settings("o3"), { settings: {}, notes }, CHOICE_ANSWER);
    expect(o3.identity).toMatchObject({
      model: "o3",
      temperature: 0.7,
      notSent: ["temperature", "topP"],
      rule: "openai-o-series",
    });
    expect([...notes]).toHaveLength(1);
    const plain = acceptedSettings(
      "openai:gpt-4o",
      settings("gpt-4o"),
      { settings: {}, notes },
      CHOICE_ANSWER,
    );
    expect(plain.identity).not.toHaveProperty("notSent");
    expect(notes.size).toBe(1);
  });

  it("a default output cap per environment and answer mode, with room for a reasoning model; 0 is none", () => {
    const base = (model: string, extra: Partial<LlmSettingsInput> = {}) =>
      LlmSettingsSchema.parse({ model, ...extra });
    // Catalog choice: one letter or a short paragraph in text, one call in tools (required).
    expect(withAnswerDefaults(base("gpt-4o"), CHOICE_ANSWER)).toMatchObject({
      maxTokens: CHOICE_ANSWER.maxTokens.text,
      toolChoice: "required",
    });
    expect(withAnswerDefaults(base("gpt-4o", { answerMode: "tools" }), CHOICE_ANSWER).maxTokens).toBe(
      CHOICE_ANSWER.maxTokens.tools,
    );
    // A reasoning model's cap counts its hidden reasoning: the room its rule gives comes on top.
    const o3 = withAnswerDefaults(base("o3"), CHOICE_ANSWER);
    expect(o3.maxTokens).toBe(CHOICE_ANSWER.maxTokens.text + 16_384);
    // What the user says stands: a cap of theirs, no cap at all (0), auto in tools mode.
    expect(withAnswerDefaults(base("o3", { maxTokens: 40 }), CHOICE_ANSWER).maxTokens).toBe(40);
    expect(withAnswerDefaults(base("gpt-4o", { maxTokens: 0 }), CHOICE_ANSWER).maxTokens).toBeUndefined();
    expect(withAnswerDefaults(base("gpt-4o", { toolChoice: "auto" }), CHOICE_ANSWER).toolChoice).toBe("auto");
    // The identity records the cap sent, and the tool choice in tools mode only.
    const tools = acceptedSettings(
      "openai:x",
      base("x", { answerMode: "tools" }),
      { settings: {} },
      SHOP_ANSWER,
    );
    expect(tools.identity).toMatchObject({ maxTokens: SHOP_ANSWER.maxTokens.tools, toolChoice: "auto" });
    const text = acceptedSettings("openai:x", base("x"), { settings: {} }, SHOP_ANSWER);
    expect(text.identity).not.toHaveProperty("toolChoice");
  });

  it("a rules file: read, validated, problems named by index and field", () => {
    const dir = tempDir();
    const good = path.join(dir, "rules.json");
    writeFileSync(good, JSON.stringify([{ name: "r", match: "^x", drop: ["topP"], why: "because" }]));
    expect(loadModelRules(good)).toEqual([{ name: "r", match: "^x", drop: ["topP"], why: "because" }]);
    const bad = path.join(dir, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify([
        { name: "r", match: "(", why: "x" },
        { name: "s", match: "^y", drop: ["colour"], why: "x" },
      ]),
    );
    expect(() => loadModelRules(bad)).toThrow(/row 0, match: not a regular expression[\s\S]*row 1, drop\.0/);
    writeFileSync(bad, "{not json");
    expect(() => loadModelRules(bad)).toThrow(/cannot read the model rules/);
  });
});
