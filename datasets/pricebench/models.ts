/**
 * The models of the PriceBench paper as its release names them: response-file tag → the display name
 * its tables and figures use, and the provider its brand test groups by. (The release's `config.py`
 * registry; Qwen3 1.7B is the failed run the paper leaves out, listed so that its files, if present,
 * still get their name.) A tag not listed here is imported under its tag.
 */
export interface PriceBenchModel {
  name: string;
  provider: string;
}

export const PRICEBENCH_MODELS: Readonly<Record<string, PriceBenchModel>> = {
  qwen3_0_6b: { name: "Qwen3 0.6B", provider: "Alibaba" },
  qwen3_1_7b: { name: "Qwen3 1.7B", provider: "Alibaba" },
  gemma2_9b: { name: "Gemma2 9B", provider: "Google" },
  gemma3_1b: { name: "Gemma3 1B", provider: "Google" },
  gemma3_latest: { name: "Gemma3 4B", provider: "Google" },
  llama3_2_1b: { name: "Llama3.2 1B", provider: "Meta" },
  llama3_2_latest: { name: "Llama3.2 3B", provider: "Meta" },
  "qwen3_4b-instruct": { name: "Qwen3 4B", provider: "Alibaba" },
  qwen3_latest: { name: "Qwen3 8B", provider: "Alibaba" },
  gemma3_12b: { name: "Gemma3 12B", provider: "Google" },
  gemma3_27b: { name: "Gemma3 27B", provider: "Google" },
  "qwen3_30b-a3b-instruct-2507-q4_K_M": { name: "Qwen3 30B-A3B", provider: "Alibaba" },
  "llama3_8b-instruct-fp16": { name: "Llama3 8B", provider: "Meta" },
  llama3_1_8b: { name: "Llama3.1 8B", provider: "Meta" },
  "deepseek-r1_1_5b": { name: "DeepSeek-R1 1.5B", provider: "DeepSeek" },
  "deepseek-r1_7b": { name: "DeepSeek-R1 7B", provider: "DeepSeek" },
  "mistral_7b-instruct-fp16": { name: "Mistral 7B", provider: "Mistral" },
  "mistral-nemo": { name: "Mistral-Nemo 12B", provider: "Mistral" },
  phi: { name: "Phi-2 2.7B", provider: "Microsoft" },
  phi3_mini: { name: "Phi-3 Mini", provider: "Microsoft" },
  phi3_medium: { name: "Phi-3 Medium", provider: "Microsoft" },
  "phi4-mini": { name: "Phi-4 Mini", provider: "Microsoft" },
  phi4_14b: { name: "Phi-4 14B", provider: "Microsoft" },
  "gpt-4_1-nano": { name: "GPT-4.1 Nano", provider: "OpenAI" },
  "gpt-4_1-mini": { name: "GPT-4.1 Mini", provider: "OpenAI" },
  "gpt-5_4-nano": { name: "GPT-5.4 Nano", provider: "OpenAI" },
  "gpt-5_4-mini": { name: "GPT-5.4 Mini", provider: "OpenAI" },
  "gpt-5_4": { name: "GPT-5.4", provider: "OpenAI" },
  "claude-haiku-4-5": { name: "Claude Haiku 4.5", provider: "Anthropic" },
};

export function priceBenchModel(tag: string): PriceBenchModel | undefined {
  return Object.hasOwn(PRICEBENCH_MODELS, tag) ? PRICEBENCH_MODELS[tag] : undefined;
}
